// @ts-check
'use strict';

/**
 * A local SMTP server that accepts every message and keeps it, so n8n's Send Email node can be
 * pointed at it in the demo and the e2e suite. Loopback only, no TLS, no authentication.
 */

const fs = require('node:fs');
const path = require('node:path');
const { SMTPServer } = require('smtp-server');

/**
 * @typedef {object} ReceivedMail
 * @property {string} from envelope sender
 * @property {string[]} to envelope recipients
 * @property {string} subject decoded Subject header
 * @property {string} raw the whole message as received
 * @property {string} body the text of every part, transfer-decoded (quoted-printable, base64)
 * @property {string} receivedAt ISO time
 * @property {string | undefined} file where it was saved, when a mail folder was given
 */

/**
 * @typedef {object} SmtpSink
 * @property {string} host
 * @property {number} port
 * @property {ReceivedMail[]} messages
 * @property {(predicate: (mail: ReceivedMail) => boolean, timeoutMs: number) => Promise<ReceivedMail>} waitFor
 * @property {() => Promise<void>} stop
 */

/**
 * Decodes RFC 2047 encoded words (=?utf-8?Q?...?= / =?utf-8?B?...?=) in a header value.
 * @param {string} value
 * @returns {string}
 */
function decodeHeader(value) {
	return value.replace(
		/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g,
		(_match, _charset, encoding, text) => {
			if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
			const bytes = text
				.replace(/_/g, ' ')
				.replace(/=([0-9A-Fa-f]{2})/g, (/** @type {string} */ _hex, /** @type {string} */ code) =>
					String.fromCharCode(parseInt(code, 16)),
				);
			return Buffer.from(bytes, 'latin1').toString('utf8');
		},
	);
}

/**
 * @param {string} raw
 * @returns {string}
 */
function subjectOf(raw) {
	const headerEnd = raw.search(/\r?\n\r?\n/);
	const headers = (headerEnd === -1 ? raw : raw.slice(0, headerEnd)).replace(/\r?\n[ \t]+/g, ' ');
	const match = /^subject:\s*(.*)$/im.exec(headers);
	return match ? decodeHeader(match[1].trim()) : '';
}

/**
 * @param {string} part headers and body of a message or MIME part
 * @returns {{ headers: string, body: string }}
 */
function splitPart(part) {
	const match = /\r?\n\r?\n/.exec(part);
	if (!match) return { headers: part, body: '' };
	return {
		headers: part.slice(0, match.index).replace(/\r?\n[ \t]+/g, ' '),
		body: part.slice(match.index + match[0].length),
	};
}

/**
 * The decoded text of a message: enough MIME to read what nodemailer sends (single part or
 * multipart, 7bit, quoted-printable or base64), not a general parser.
 * @param {string} part
 * @returns {string}
 */
function decodeBody(part) {
	const { headers, body } = splitPart(part);
	const boundary = /^content-type:\s*multipart\/[^;]+;.*boundary="?([^";\r\n]+)"?/im.exec(headers);
	if (boundary) {
		return body
			.split(`--${boundary[1]}`)
			.slice(1)
			.filter((section) => !section.startsWith('--'))
			.map((section) => decodeBody(section.replace(/^\r?\n/, '')))
			.join('\n');
	}
	const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1].toLowerCase();
	if (encoding === 'base64')
		return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	if (encoding === 'quoted-printable') {
		const bytes = body
			.replace(/=\r?\n/g, '')
			.replace(/=([0-9A-Fa-f]{2})/g, (_match, code) => String.fromCharCode(parseInt(code, 16)));
		return Buffer.from(bytes, 'latin1').toString('utf8');
	}
	return body;
}

/**
 * @param {{ port?: number, mailDir?: string, onMail?: (mail: ReceivedMail) => void }} [options]
 * @returns {Promise<SmtpSink>}
 */
async function startSmtpSink(options = {}) {
	/** @type {ReceivedMail[]} */
	const messages = [];
	/** @type {Set<() => void>} */
	const listeners = new Set();
	if (options.mailDir) fs.mkdirSync(options.mailDir, { recursive: true });

	const server = new SMTPServer({
		secure: false,
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		// Every message is kept; a digest of many tenders is still small.
		size: 10 * 1024 * 1024,
		logger: false,
		banner: 'n8n-nodes-supplier-matched-projects local mail sink',
		onAuth(_auth, _session, callback) {
			callback(null, { user: 'local' });
		},
		onData(stream, session, callback) {
			/** @type {Buffer[]} */
			const chunks = [];
			stream.on('data', (chunk) => chunks.push(chunk));
			stream.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8');
				const receivedAt = new Date().toISOString();
				/** @type {string | undefined} */
				let file;
				if (options.mailDir) {
					file = path.join(
						options.mailDir,
						`${receivedAt.replace(/[:.]/g, '-')}-${messages.length + 1}.eml`,
					);
					fs.writeFileSync(file, raw);
				}
				const mail = {
					from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
					to: session.envelope.rcptTo.map((recipient) => recipient.address),
					subject: subjectOf(raw),
					raw,
					body: decodeBody(raw),
					receivedAt,
					file,
				};
				messages.push(mail);
				options.onMail?.(mail);
				for (const listener of listeners) listener();
				callback();
			});
		},
	});

	const port = await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			const address = server.server.address();
			if (address && typeof address === 'object') resolve(address.port);
			else reject(new Error('could not read the SMTP sink port'));
		});
	});

	return {
		host: '127.0.0.1',
		port,
		messages,
		waitFor(predicate, timeoutMs) {
			return new Promise((resolve, reject) => {
				const check = () => {
					const found = messages.find(predicate);
					if (!found) return false;
					listeners.delete(check);
					clearTimeout(timer);
					resolve(found);
					return true;
				};
				const timer = setTimeout(() => {
					listeners.delete(check);
					reject(
						new Error(`no matching email within ${timeoutMs} ms (received ${messages.length})`),
					);
				}, timeoutMs);
				listeners.add(check);
				check();
			});
		},
		stop() {
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

module.exports = { startSmtpSink };
