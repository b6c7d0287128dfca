/* Mail at the door (issue 22, items 6 and 7): headers stored as valid
 * UTF-8 with no NUL, the mbox separator's full shape, transfer encodings
 * by their whole name, an error quoting a line of an unterminated buffer. */
#include "unit.h"
#include "../../ingest/mail.h"

#include <stdlib.h>
#include <string.h>

static int decode(const char *msg, struct mail_msg *m, struct kb_err *e)
{
	kb_err_clear(e);
	return mail_decode(msg, strlen(msg), 0, "t.mbox", 1, m, e);
}

TEST(safe_mail_headers_utf8)
{
	struct mail_msg m;
	struct kb_err e;

	/* an encoded word of a byte that is not UTF-8, a raw 0xFF, a raw
	 * Latin-1 name: U+FFFD, never stored as it came */
	CHECK_INT(decode("From: =?utf-8?B?/w==?= <x@y>\nMessage-ID: <\xff" "a@b>\n"
			 "Subject: J\xf6rg\nDate: \xff\n\nbody\n", &m, &e), 0);
	CHECK_STR(m.from, "\xef\xbf\xbd <x@y>");
	CHECK_STR(m.message_id, "\xef\xbf\xbd" "a@b");
	CHECK_STR(m.subject, "J\xef\xbf\xbd" "rg");
	CHECK_STR(m.date, "\xef\xbf\xbd");
	mail_msg_release(&m);
	/* a NUL from an encoded word does not cut the Subject */
	CHECK_INT(decode("From: a@b\nSubject: =?utf-8?Q?ab=00cd?= tail\n\nbody\n", &m, &e), 0);
	CHECK_STR(m.subject, "ab\xef\xbf\xbd" "cd tail");
	mail_msg_release(&m);
}

TEST(safe_mail_mbox_from_shape)
{
	const char *mbox =
		"From a@b Mon Oct  7 11:00:00 2002\nFrom: A <a@b>\nMessage-ID: <1@b>\n\n"
		"Time: 1.0\n\nFrom the run below\nTime: 2.0\n\n"
		"From b@c Mon Oct  7 12:00:00 2002\nFrom: B <b@c>\nMessage-ID: <2@c>\n\ntwo\n";
	struct mail_mbox mb;
	struct mail_msg m;
	struct kb_err e;
	const char *msg;
	size_t len;
	long line;

	mail_mbox_init(&mb, mbox, strlen(mbox));
	CHECK_INT(mail_mbox_next(&mb, &msg, &len, &line), 0);
	CHECK_INT(mail_decode(msg, len, 0, "t", line, &m, &e), 0);
	CHECK_STR(m.message_id, "1@b");
	CHECK(strstr(buf_str(&m.text), "From the run below\nTime: 2.0") != NULL);
	mail_msg_release(&m);
	CHECK_INT(mail_mbox_next(&mb, &msg, &len, &line), 0);
	CHECK_INT(mail_decode(msg, len, 0, "t", line, &m, &e), 0);
	CHECK_STR(m.message_id, "2@c");
	mail_msg_release(&m);
	CHECK_INT(mail_mbox_next(&mb, &msg, &len, &line), 1);
}

TEST(safe_mail_transfer_encoding_whole_name)
{
	struct mail_msg m;
	struct kb_err e;

	/* "base64x" is no base64: the body stays as it is */
	CHECK_INT(decode("From: a@b\nContent-Transfer-Encoding: base64x\n\nVGltZTogMS4w\n", &m, &e), 0);
	CHECK_STR(buf_str(&m.text), "VGltZTogMS4w\n");
	mail_msg_release(&m);
	CHECK_INT(decode("From: a@b\nContent-Transfer-Encoding: BASE64 \n\nVGltZTogMS4w\n", &m, &e), 0);
	CHECK_STR(buf_str(&m.text), "Time: 1.0\n");
	mail_msg_release(&m);
	CHECK_INT(decode("From: a@b\nContent-Transfer-Encoding: quoted-printablez\n\na=3Db\n", &m, &e), 0);
	CHECK_STR(buf_str(&m.text), "a=3Db\n");
	mail_msg_release(&m);
}

TEST(safe_mail_bad_header_unterminated)
{
	/* the bad line is the buffer's last bytes, with no NUL after them:
	 * the message quotes it without reading past the end (ASan) */
	static const char text[] = "From: a@b\nno header";
	size_t n = sizeof(text) - 1;
	char *msg = malloc(n);
	struct mail_msg m;
	struct kb_err e;

	memcpy(msg, text, n);
	kb_err_clear(&e);
	CHECK_INT(mail_decode(msg, n, 0, "t.mbox", 1, &m, &e), -1);
	CHECK_STR(e.msg, "not a mail header line: 'no header'");
	mail_msg_release(&m);
	free(msg);
}
