// @ts-check
'use strict';

/**
 * HTTPS for the sandbox: a certificate made when the sandbox starts, for the loopback names it
 * may listen on, and the files a separate process needs to trust it. Nothing here turns
 * verification off: a client trusts the certificate through the `ca` option or through
 * NODE_EXTRA_CA_CERTS naming a file that holds it.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const selfsigned = require('selfsigned');
const { oneOf } = require('./errors');

/** @typedef {'TLSv1.2' | 'TLSv1.3'} TlsVersion */

const TLS_VERSIONS = /** @type {const} */ (['TLSv1.2', 'TLSv1.3']);

/**
 * A self-signed certificate for 127.0.0.1, ::1 and localhost, valid from an hour ago (clock
 * skew) for two days: long enough for any run, useless after it. Its name is unique: a client
 * trusting two sandboxes' certificates finds an issuer by name, and two certificates of the same
 * name would make it check one against the other's key.
 */
async function createSandboxCertificate() {
	const notBefore = new Date(Date.now() - 3_600_000);
	const notAfter = new Date(notBefore.getTime() + 2 * 86_400_000);
	const generated = await selfsigned.generate(
		[{ name: 'commonName', value: `Supplier Matched-Projects sandbox ${randomUUID()}` }],
		{
			keyType: 'ec',
			curve: 'P-256',
			algorithm: 'sha256',
			notBeforeDate: notBefore,
			notAfterDate: notAfter,
			extensions: [
				{ name: 'basicConstraints', cA: true, critical: true },
				{ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
				{ name: 'extKeyUsage', serverAuth: true },
				{
					name: 'subjectAltName',
					altNames: [
						{ type: 2, value: 'localhost' },
						{ type: 7, ip: '127.0.0.1' },
						{ type: 7, ip: '::1' },
					],
				},
			],
		},
	);
	return { cert: generated.cert, key: generated.private };
}

/** @param {unknown} value undefined: both */
const tlsVersionOf = (value) =>
	value === undefined ? undefined : oneOf(value, TLS_VERSIONS, 'startSandbox: https.tlsVersion');

/**
 * Writes what another process needs to trust the sandbox into a new private folder:
 * `sandbox-ca.pem` (the certificate alone, for a `ca` option) and `ca-bundle.pem` (the file that
 * NODE_EXTRA_CA_CERTS of this process names, if any, followed by the certificate). Node reads one
 * NODE_EXTRA_CA_CERTS file only, so a child given the sandbox certificate alone would lose the
 * extra authorities its parent trusts.
 * @param {string} cert
 */
function writeTrustFiles(cert) {
	const extraCaFile = process.env.NODE_EXTRA_CA_CERTS;
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'supplier-sandbox-tls-'));
	const caFile = path.join(folder, 'sandbox-ca.pem');
	const bundleFile = path.join(folder, 'ca-bundle.pem');
	const extra =
		extraCaFile !== undefined && extraCaFile !== '' && fs.existsSync(extraCaFile)
			? fs.readFileSync(extraCaFile, 'utf8')
			: '';
	fs.writeFileSync(caFile, cert, { mode: 0o600 });
	const ending = (/** @type {string} */ pem) => (pem === '' || pem.endsWith('\n') ? '' : '\n');
	// A PEM block glued to the next one's BEGIN line makes Node ignore the whole file.
	fs.writeFileSync(bundleFile, `${extra}${ending(extra)}${cert}${ending(cert)}`, { mode: 0o600 });
	return { caFile, bundleFile, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

module.exports = { createSandboxCertificate, tlsVersionOf, writeTrustFiles };
