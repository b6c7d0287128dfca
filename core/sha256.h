/*
 * sha256.h - SHA-256 (FIPS 180-4), used to recognise a source file whose
 * bytes were imported before.
 */
#ifndef KB_SHA256_H
#define KB_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t total;
	unsigned char block[64];
	size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, unsigned char digest[32]);
/* Hex digest of data[0..len) into out (65 bytes). */
/* Finish s and write its digest as lower-case hex into out (65 bytes). */
void sha256_final_hex(struct sha256 *s, char out[65]);
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
