#include "sha256.h"

#include <string.h>

/* First 32 bits of the fractional parts of the cube roots of the first 64
 * primes (FIPS 180-4, section 4.2.2). */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		uint32_t S1 = ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = h + S1 + ch + K[i] + w[i];
		uint32_t S0 = ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = S0 + maj;
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

/*
 * The SHA extensions (SHA-NI) do two rounds per instruction; a file's
 * hash was the largest single cost of an import in portable C.  State
 * is kept as ABEF and CDGH lanes, as sha256rnds2 wants it.  Message
 * words for rounds 16..63 come from sha256msg1/msg2 on a ring of four
 * registers: group g (rounds 4g..4g+3) uses m[g % 4].
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_shani(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i st0, st1, tmp, msg, save0, save1, m[4];
	int g;

	tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);    /* CDAB */
	st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);    /* EFGH */
	st0 = _mm_alignr_epi8(tmp, st1, 8);                                         /* ABEF */
	st1 = _mm_blend_epi16(st1, tmp, 0xF0);                                      /* CDGH */
	for (; nblocks; nblocks--, p += 64) {
		save0 = st0;
		save1 = st1;
		for (g = 0; g < 16; g++) {
			if (g < 4)
				m[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
			msg = _mm_add_epi32(m[g % 4], _mm_loadu_si128((const __m128i *)&K[4 * g]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
			if (g >= 3 && g < 15) {
				tmp = _mm_alignr_epi8(m[g % 4], m[(g + 3) % 4], 4);
				m[(g + 1) % 4] = _mm_add_epi32(m[(g + 1) % 4], tmp);
				m[(g + 1) % 4] = _mm_sha256msg2_epu32(m[(g + 1) % 4], m[g % 4]);
			}
			msg = _mm_shuffle_epi32(msg, 0x0E);
			st0 = _mm_sha256rnds2_epu32(st0, st1, msg);
			if (g >= 1 && g < 13)
				m[(g + 3) % 4] = _mm_sha256msg1_epu32(m[(g + 3) % 4], m[g % 4]);
		}
		st0 = _mm_add_epi32(st0, save0);
		st1 = _mm_add_epi32(st1, save1);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1B);                                         /* FEBA */
	st1 = _mm_shuffle_epi32(st1, 0xB1);                                         /* DCHG */
	st0 = _mm_blend_epi16(tmp, st1, 0xF0);                                      /* DCBA */
	st1 = _mm_alignr_epi8(st1, tmp, 8);                                         /* HGFE */
	_mm_storeu_si128((__m128i *)&h[0], st0);
	_mm_storeu_si128((__m128i *)&h[4], st1);
}

static int have_shani(void)
{
	static int have = -1;
	unsigned a, b, c, d;

	if (have < 0) {
		have = 0;
		if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) &&
		    __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA))
			have = 1;
	}
	return have;
}
#else
static void compress_shani(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	(void)h; (void)p; (void)nblocks;
}

static int have_shani(void)
{
	return 0;
}
#endif

/* nblocks 64-byte blocks at p into the state. */
static void compress_blocks(struct sha256 *s, const unsigned char *p, size_t nblocks)
{
	if (have_shani()) {
		compress_shani(s->h, p, nblocks);
		return;
	}
	for (; nblocks; nblocks--, p += 64)
		compress(s, p);
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t H0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->h, H0, sizeof(H0));
	s->total = 0;
	s->fill = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->total += len;
	if (s->fill) {
		size_t take = 64 - s->fill < len ? 64 - s->fill : len;
		memcpy(s->block + s->fill, p, take);
		s->fill += take;
		p += take;
		len -= take;
		if (s->fill < 64)
			return;
		compress_blocks(s, s->block, 1);
		s->fill = 0;
	}
	if (len >= 64) {
		compress_blocks(s, p, len / 64);
		p += len / 64 * 64;
		len %= 64;
	}
	memcpy(s->block, p, len);
	s->fill = len;
}

void sha256_final(struct sha256 *s, unsigned char digest[32])
{
	uint64_t bits = s->total * 8;
	unsigned char pad[72];
	size_t padlen = (s->fill < 56 ? 56 : 120) - s->fill;
	int i;

	memset(pad, 0, sizeof(pad));
	pad[0] = 0x80;
	for (i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, pad, padlen + 8);
	for (i = 0; i < 8; i++) {
		digest[4 * i] = (unsigned char)(s->h[i] >> 24);
		digest[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		digest[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		digest[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void sha256_final_hex(struct sha256 *s, char out[65])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char d[32];
	int i;

	/* By hand: snprintf per byte showed up in import profiles. */
	sha256_final(s, d);
	for (i = 0; i < 32; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[64] = '\0';
}

void sha256_hex(const void *data, size_t len, char out[65])
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final_hex(&s, out);
}
