/* SHA-256 known answers (FIPS 180-2 appendix B and the empty string),
 * fed whole and in pieces that straddle block boundaries.  The hashing
 * is nettle's; its own CPU dispatch picks SHA-NI where there is one. */
#include "unit.h"
#include "../../core/sha256.h"

#include <stdlib.h>

static const struct {
	const char *text;       /* NULL: one million 'a' */
	const char *hex;
} kat[] = {
	{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	{ NULL, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

TEST(sha256_kat)
{
	size_t i, n, k;
	char out[65];
	char *million = malloc(1000000);

	memset(million, 'a', 1000000);
	for (i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
		const char *t = kat[i].text ? kat[i].text : million;
		struct sha256 s;
		n = kat[i].text ? strlen(t) : 1000000;
		sha256_hex(t, n, out);
		CHECK_STR(out, kat[i].hex);
		/* in pieces of 1, 7, 63, 64, 65 ... bytes */
		sha256_init(&s);
		for (k = 0; k < n;) {
			size_t step = (size_t[]){ 1, 7, 63, 64, 65, 200, 4096 }[(k / 3) % 7];
			if (step > n - k)
				step = n - k;
			sha256_update(&s, t + k, step);
			k += step;
		}
		sha256_final_hex(&s, out);
		CHECK_STR(out, kat[i].hex);
	}
	free(million);
}
