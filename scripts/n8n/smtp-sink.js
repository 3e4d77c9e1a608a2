// @ts-check
'use strict';

/**
 * A local SMTP server, for n8n's Send Email node in the demo and the e2e suites, that keeps every
 * message. Loopback only, no TLS, no authentication.
 */

const fs = require('node:fs');
const path = require('node:path');
const { simpleParser } = require('mailparser');
const { SMTPServer } = require('smtp-server');

const { waitUntil } = require('./runtime');

/**
 * @typedef {{ to: string[], subject: string, body: string, file: string | undefined }} ReceivedMail
 *   to: the envelope's recipients; body: the HTML part as sent (its escaping is what tests check),
 *   else the text part; file: where it was saved, when a mail folder was given
 */

/** @param {{ mailDir?: string, onMail?: (mail: ReceivedMail) => void }} [options] */
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
					const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messages.length + 1}.eml`;
					const file = options.mailDir && path.join(options.mailDir, name);
					if (file) fs.writeFileSync(file, raw);
					const mail = {
						to: session.envelope.rcptTo.map((recipient) => recipient.address),
						subject: parsed.subject ?? '',
						body: parsed.html || parsed.text || '',
						file,
					};
					messages.push(mail);
					options.onMail?.(mail);
					callback();
				}, callback);
			});
		},
	});

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.server.address());

	return {
		host: '127.0.0.1',
		port,
		messages,
		/** @param {(mail: ReceivedMail) => boolean} predicate @param {number} timeoutMs */
		waitFor: (predicate, timeoutMs) =>
			waitUntil(() => messages.find(predicate), {
				timeoutMs,
				intervalMs: 200,
				failure: () => `no matching email (received ${messages.length})`,
			}),
		/** @returns {Promise<void>} */
		stop() {
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

module.exports = { startSmtpSink };
