// @ts-check
'use strict';

/**
 * Reads the TLS record layer of one connection's client-to-server bytes, as they arrive in
 * chunks of any size, and reports every ClientHello: a handshake record (content type 22) whose
 * first handshake message is of type 1. Only the plaintext start of a connection can hold one:
 * reading stops at the first ChangeCipherSpec (20) or application-data (23) record, after which
 * everything is encrypted, and at the first byte that is not a TLS record at all (plain HTTP).
 */

const HANDSHAKE = 22;
const CHANGE_CIPHER_SPEC = 20;
const APPLICATION_DATA = 23;
const CLIENT_HELLO = 1;
const HEADER_BYTES = 5;

/**
 * @param {() => void} onClientHello
 * @returns {(chunk: Buffer) => void} feed the connection's next chunk
 */
function createClientHelloCounter(onClientHello) {
	/** Bytes of the current record's header read so far. */
	const header = Buffer.alloc(HEADER_BYTES);
	let headerRead = 0;
	/** Payload bytes of the current record not yet passed. */
	let payloadLeft = 0;
	let recordType = 0;
	let atPayloadStart = false;
	let done = false;

	return (chunk) => {
		let offset = 0;
		// Bounded: every pass consumes at least one byte of the chunk or stops.
		while (!done && offset < chunk.length) {
			if (payloadLeft === 0) {
				header[headerRead++] = chunk[offset++];
				if (headerRead === 1 && ![HANDSHAKE, CHANGE_CIPHER_SPEC].includes(header[0])) {
					done = true;
					break;
				}
				if (headerRead < HEADER_BYTES) continue;
				headerRead = 0;
				recordType = header[0];
				payloadLeft = header.readUInt16BE(3);
				atPayloadStart = true;
				if (recordType === CHANGE_CIPHER_SPEC || recordType === APPLICATION_DATA) done = true;
				continue;
			}
			if (atPayloadStart) {
				atPayloadStart = false;
				if (recordType === HANDSHAKE && chunk[offset] === CLIENT_HELLO) onClientHello();
			}
			const taken = Math.min(payloadLeft, chunk.length - offset);
			payloadLeft -= taken;
			offset += taken;
		}
	};
}

module.exports = { createClientHelloCounter };
