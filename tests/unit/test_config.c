/* The canonical config: one writer (rec_config_string), one reader
 * (rec_config_next / rec_config_value) and one matcher, round-tripping
 * any key and value: '=' and ',' inside, and lengths past any buffer. */
#include "unit.h"
#include "../../core/buf.h"
#include "../../ingest/record.h"

#include <stdlib.h>

struct filter {
	const char *key, *value;
};

TEST(config_round_trip_and_match)
{
	struct arena a;
	struct rec_kv kv[3];
	struct buf k = BUF_INIT, v = BUF_INIT;
	char *longa = malloc(2001), *longb = malloc(2001);
	const char *cfg, *p;
	struct filter f[3];
	int n = 0;

	memset(longa, 'x', 2000);
	memset(longb, 'x', 2000);
	longa[1999] = 'a';
	longb[1999] = 'b';
	longa[2000] = longb[2000] = '\0';
	arena_init(&a);
	kv[0] = (struct rec_kv){ "cmd", "/usr/bin/time -f %e sh -c i=0,j=1\\" };
	kv[1] = (struct rec_kv){ "long", longa };
	kv[2] = (struct rec_kv){ "a=b,c", "1" };
	cfg = rec_config_string(&a, kv, 3);
	p = "a\\=b\\,c=1,cmd=/usr/bin/time -f %e sh -c i\\=0\\,j\\=1\\\\,long=";
	CHECK(strncmp(cfg, p, strlen(p)) == 0 && strcmp(cfg + strlen(p), longa) == 0);
	p = cfg;
	while (rec_config_next(&p, &k, &v)) {
		if (n == 0) {
			CHECK_STR(buf_str(&k), "a=b,c");
			CHECK_STR(buf_str(&v), "1");
		} else if (n == 1) {
			CHECK_STR(buf_str(&k), "cmd");
			CHECK_STR(buf_str(&v), "/usr/bin/time -f %e sh -c i=0,j=1\\");
		} else {
			CHECK_STR(buf_str(&k), "long");
			CHECK(strcmp(buf_str(&v), longa) == 0);
		}
		n++;
	}
	CHECK_INT(n, 3);
	CHECK_INT(rec_config_value(cfg, "cmd", &v), 0);
	CHECK_STR(buf_str(&v), "/usr/bin/time -f %e sh -c i=0,j=1\\");
	CHECK_INT(rec_config_value(cfg, "cm", NULL), -1);
	CHECK_INT(rec_config_value(NULL, "cmd", NULL), -1);
	CHECK(rec_config_has(cfg, "long", longa));
	CHECK(!rec_config_has(cfg, "long", longb));   /* 1,999 bytes in common */
	f[0] = (struct filter){ "cmd", "/usr/bin/time -f %e sh -c i=0,j=1\\" };
	CHECK(REC_CONFIG_MATCH(cfg, f, 1));
	f[1] = (struct filter){ "long", longb };
	CHECK(!REC_CONFIG_MATCH(cfg, f, 2));
	f[2] = (struct filter){ "long", longa };      /* same key again: either value */
	CHECK(REC_CONFIG_MATCH(cfg, f, 3));
	f[0] = (struct filter){ "nokey", "1" };
	CHECK(!REC_CONFIG_MATCH(cfg, f, 3));
	CHECK(REC_CONFIG_MATCH(cfg, (struct filter *)NULL, 0));
	buf_release(&k);
	buf_release(&v);
	arena_release(&a);
	free(longa);
	free(longb);
}
