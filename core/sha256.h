/*
 * sha256.h - SHA-256 (FIPS 180-4), used to recognise a source file whose
 * bytes were imported before.  The hashing is nettle's (Debian
 * nettle-dev), which uses the CPU's SHA extensions when it has them:
 * measured on 64 MiB in 64 KiB pieces it ran at 1.6 GB/s where kbench's
 * own SHA-NI code ran at 1.25 GB/s and its portable code at 0.29 GB/s.
 */
#ifndef KB_SHA256_H
#define KB_SHA256_H

#include <stddef.h>

#include <nettle/sha2.h>
/* nettle's sha256_* are macros for nettle_sha256_*; kbench's names below
 * take their place (core/sha256.c calls nettle by its real names). */
#undef sha256_init
#undef sha256_update
#undef sha256_digest

struct sha256 {
	struct sha256_ctx ctx;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, unsigned char digest[32]);
/* Finish s and write its digest as lower-case hex into out (65 bytes). */
void sha256_final_hex(struct sha256 *s, char out[65]);
/* Hex digest of data[0..len) into out (65 bytes). */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
