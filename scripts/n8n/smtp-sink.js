// @ts-check
'use strict';

/**
 * A local SMTP server that accepts every message and keeps it, so n8n's Send Email node can be
 * pointed at it in the demo and the e2e suite. Loopback only, no TLS, no authentication.
 */

const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: delay } = require('node:timers/promises');
const { simpleParser } = require('mailparser');
const { SMTPServer } = require('smtp-server');

/**
 * @typedef {object} ReceivedMail
 * @property {string} from envelope sender
 * @property {string[]} to envelope recipients
 * @property {string} subject decoded Subject header
 * @property {string} raw the whole message as received
 * @property {string} body the HTML part as sent (its escaping is what tests check), else the text
 *   part, transfer-decoded
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
 * @param {{ port?: number, mailDir?: string, onMail?: (mail: ReceivedMail) => void }} [options]
 * @returns {Promise<SmtpSink>}
 */
async function startSmtpSink(options = {}) {
	/** @type {ReceivedMail[]} */
	const messages = [];
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
				// A message the parser cannot read is refused to the sender, not lost silently.
				simpleParser(raw).then((parsed) => {
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
						subject: parsed.subject ?? '',
						raw,
						body: parsed.html || parsed.text || '',
						receivedAt,
						file,
					};
					messages.push(mail);
					options.onMail?.(mail);
					callback();
				}, callback);
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
		async waitFor(predicate, timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const found = messages.find(predicate);
				if (found) return found;
				if (Date.now() > deadline) {
					throw new Error(`no matching email within ${timeoutMs} ms (received ${messages.length})`);
				}
				await delay(200);
			}
		},
		stop() {
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

module.exports = { startSmtpSink };
