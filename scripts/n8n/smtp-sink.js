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
 * @typedef {{ to: string[], subject: string, body: string, file: string | undefined }} ReceivedMail
 *   to: the envelope's recipients; body: the HTML part as sent (its escaping is what tests check),
 *   else the text part; file: where it was saved, when a mail folder was given
 */

/**
 * @param {{ port?: number, mailDir?: string, onMail?: (mail: ReceivedMail) => void }} [options]
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
		server.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined));
	});
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.server.address());

	return {
		host: '127.0.0.1',
		port,
		messages,
		/**
		 * @param {(mail: ReceivedMail) => boolean} predicate
		 * @param {number} timeoutMs
		 */
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
		/** @returns {Promise<void>} */
		stop() {
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

module.exports = { startSmtpSink };
