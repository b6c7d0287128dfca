/* Mail messages: mbox splitting, MIME decoding, headers. */
#include "unit.h"
#include "../../ingest/mail.h"

#include <stdlib.h>
#include <string.h>

static int decode(const char *msg, int mboxrd, struct mail_msg *m, struct kb_err *e)
{
	kb_err_clear(e);
	return mail_decode(msg, strlen(msg), mboxrd, "t.mbox", 10, m, e);
}

TEST(mail_detect)
{
	const char *mbox = "From a@b Mon Oct  7 11:00:00 2002\nFrom: A <a@b>\n\nhi\n";
	const char *eml = "Return-Path: <a@b>\nFrom: A <a@b>\nSubject: x\n\nTime: 5.54\n";

	CHECK(mail_is_mbox(mbox, strlen(mbox)));
	CHECK(!mail_is_message(mbox, strlen(mbox)));
	CHECK(mail_is_message(eml, strlen(eml)));
	CHECK(!mail_is_mbox(eml, strlen(eml)));
	/* GNU time -v output is "Label: value" lines but no mail */
	CHECK(!mail_is_message("Command being timed: \"x\"\nUser time (seconds): 1\n\n", 48));
	/* a pasted post with a From: line further down is not a header block */
	CHECK(!mail_is_message("Re: x\n\nFrom: A\nDate: y\n", 24));
}

TEST(mail_mbox_split)
{
	const char *mbox =
		"From a@b Mon Oct  7 11:00:00 2002\nFrom: A <a@b>\nMessage-ID: <1@b>\n\n"
		"one\n>From here on\n\n"
		"From b@c Mon Oct  7 12:00:00 2002\nFrom: B <b@c>\nMessage-ID: <2@c>\n\ntwo\n\n";
	struct mail_mbox mb;
	struct mail_msg m;
	struct kb_err e;
	const char *msg;
	size_t len;
	long line;

	mail_mbox_init(&mb, mbox, strlen(mbox));
	CHECK_INT(mail_mbox_next(&mb, &msg, &len, &line), 0);
	CHECK_INT(line, 2);
	CHECK_INT(mail_decode(msg, len, 1, "t", line, &m, &e), 0);
	CHECK_STR(m.message_id, "1@b");
	CHECK_STR(buf_str(&m.text), "one\nFrom here on\n");
	mail_msg_release(&m);
	CHECK_INT(mail_mbox_next(&mb, &msg, &len, &line), 0);
	CHECK_INT(line, 9);
	CHECK_INT(mail_decode(msg, len, 1, "t", line, &m, &e), 0);
	CHECK_STR(m.from, "B <b@c>");
	CHECK_STR(buf_str(&m.text), "two\n");
	mail_msg_release(&m);
	CHECK_INT(mail_mbox_next(&mb, &msg, &len, &line), 1);
}

TEST(mail_headers)
{
	struct mail_msg m;
	struct kb_err e;

	CHECK_INT(decode("From: =?iso-8859-1?q?J=F6rg_M=FCller?= <jm@x.de>\n"
			 "Subject: =?utf-8?B?UmU6IFtQQVRDSF0=?=\n =?utf-8?q?_node_affine?= NUMA\n"
			 "Date: Mon, 7 Oct 2002 11:37:51 EST\n"
			 "Message-ID: <200210071137.51@x.de>\n\nbody\n", 0, &m, &e), 0);
	CHECK_STR(m.from, "J\xc3\xb6rg M\xc3\xbcller <jm@x.de>");
	CHECK_STR(m.subject, "Re: [PATCH] node affine NUMA");
	CHECK_STR(m.date, "2002-10-07 11:37:51 -0500");
	CHECK_STR(m.message_id, "200210071137.51@x.de");
	mail_msg_release(&m);

	CHECK_INT(decode("From: x@y (Erich Focht)\nDate: not a date\n\nb\n", 0, &m, &e), 0);
	CHECK_STR(m.date, "not a date");
	{
		char *a = mail_author(m.from);
		CHECK_STR(a, "Erich Focht");
		free(a);
		a = mail_author("\"Focht, Erich\" <efocht@ess.nec.de>");
		CHECK_STR(a, "Focht, Erich");
		free(a);
		a = mail_author("<efocht@ess.nec.de>");
		CHECK_STR(a, "efocht@ess.nec.de");
		free(a);
	}
	mail_msg_release(&m);
}

TEST(mail_mime)
{
	struct mail_msg m;
	struct kb_err e;
	struct buf by = BUF_INIT;

	CHECK_INT(decode("From: A <a@b>\nContent-Type: multipart/mixed; boundary=\"XX\"\n\n"
			 "preamble\n--XX\nContent-Type: multipart/alternative; boundary=YY\n\n"
			 "--YY\nContent-Type: text/plain; charset=iso-8859-1\n"
			 "Content-Transfer-Encoding: quoted-printable\n\nGr=FC=DFe, Time: =\n5.54\n"
			 "--YY\nContent-Type: text/html\n\n<p>x</p>\n--YY--\n"
			 "--XX\nContent-Type: text/plain; name=numa_test.txt\n"
			 "Content-Transfer-Encoding: base64\n\n"
			 "RWxhcHNlZFRpbWUgICAgIDQ5LjU1\nClRvdGFsVXNlclRpbWUgICAxMjkuNDkK\n"
			 "--XX\nContent-Type: image/png; name=a.png\nContent-Transfer-Encoding: base64\n\n"
			 "iVBORw0KGgo=\n--XX--\nepilogue\n", 0, &m, &e), 0);
	CHECK_STR(buf_str(&m.text), "Gr\xc3\xbc\xc3\x9f" "e, Time: 5.54\n\n"
		  "ElapsedTime     49.55\nTotalUserTime   129.49\n");
	CHECK_INT(m.ntext, 2);
	CHECK(strstr(buf_str(&m.notes), "attachment 'a.png' (image/png) skipped") != NULL);
	mail_msg_release(&m);

	/* HTML only: no text, a note */
	CHECK_INT(decode("From: A <a@b>\nContent-Type: text/html\n\n<p>Time: 5.54</p>\n", 0, &m, &e), 0);
	CHECK_INT(m.ntext, 0);
	CHECK(strstr(buf_str(&m.notes), "line 10: HTML part (text/html) skipped") != NULL);
	mail_msg_release(&m);

	/* bytes invalid in the declared charset name the part's first line */
	CHECK_INT(decode("From: A <a@b>\nContent-Type: text/plain; charset=utf-16\n\nab\n", 0, &m, &e), -1);
	CHECK_STR(e.file, "t.mbox");
	CHECK_INT(e.line, 13);
	mail_msg_release(&m);

	mail_byline("Erich Focht <efocht@ess.nec.de>", "2002-10-07 17:20:11 +0200",
		    "Re: [PATCH] node affine NUMA scheduler", &by);
	CHECK_STR(buf_str(&by), "Erich Focht, 2002-10-07, Re: [PATCH] node affine NUMA scheduler");
	buf_release(&by);
}

TEST(mail_bad_header)
{
	struct mail_msg m;
	struct kb_err e;

	CHECK_INT(decode("From: A <a@b>\nthis is no header\n\nbody\n", 0, &m, &e), -1);
	CHECK_INT(e.line, 11);
	CHECK(strstr(e.msg, "not a mail header line") != NULL);
	mail_msg_release(&m);
}
