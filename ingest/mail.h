/*
 * mail.h - whole mail messages: mbox files (mboxrd, as lore.kernel.org
 * and b4 write them) and single RFC 5322 messages (a Maildir's files, a
 * saved .eml), decoded into the text a reader sees.
 *
 *   From efocht@ess.nec.de Mon Oct  7 17:20:11 2002
 *   From: Erich Focht <efocht@ess.nec.de>
 *   Subject: =?iso-8859-1?q?Re=3A_=5BPATCH=5D_node_affine_NUMA_scheduler?=
 *   Message-ID: <200210071720.11553.efocht@ess.nec.de>
 *   Content-Type: multipart/mixed; boundary="b1"
 *
 * MIME is undone here: multipart bodies (nested), base64 and
 * quoted-printable parts, charsets (to UTF-8 with glibc's iconv), encoded
 * words in From and Subject.  Every text part other than text/html,
 * attachments included, becomes part of the text; HTML and non-text parts
 * are left out with a note.  Pure: prints nothing, no globals.
 */
#ifndef KB_MAIL_H
#define KB_MAIL_H

#include <stddef.h>

#include "../core/buf.h"
#include "../core/err.h"

/* One decoded message.  Strings are malloc'd UTF-8, NULL when the header
 * is missing. */
struct mail_msg {
	char *message_id;       /* without the angle brackets */
	char *from;             /* "Erich Focht <efocht@ess.nec.de>" */
	char *date;             /* "2002-10-07 17:20:11 +0200", or the header as written
				 * when it cannot be read as an RFC 5322 date */
	char *subject;
	struct buf text;        /* the text parts, one after another */
	struct buf notes;       /* one line per part left out ("text/html part skipped") */
	size_t ntext;           /* text parts found */
};

/* Does data start like an mbox (a "From " line followed by headers)? */
int mail_is_mbox(const char *data, size_t len);
/* Does data start like one message (a header block with From: and one of
 * Message-ID:, Date:, Subject:)? */
int mail_is_message(const char *data, size_t len);

/* Walks an mbox one message at a time. */
struct mail_mbox {
	const char *data;
	size_t len, pos;
	long line;              /* 1-based line of pos */
};

void mail_mbox_init(struct mail_mbox *m, const char *data, size_t len);
/* The next message (its "From " line left out): *msg, *mlen and *line
 * (the line of its first header in the mbox).  Returns 0, or 1 when there
 * are no more messages.  A new message starts at a "From " line that
 * follows a blank line (or the start) and is followed by a header line. */
int mail_mbox_next(struct mail_mbox *m, const char **msg, size_t *mlen, long *line);

/*
 * Decode the message msg[0..len) into out (initialised here; release
 * with mail_msg_release even on failure).  mboxrd: undo ">From " quoting
 * (messages from an mbox).  Fails (-1, err set to path and the line,
 * counted from line0 for the message's first line) on a corrupt header
 * block, an unknown charset or bytes invalid in the declared charset.
 */
int mail_decode(const char *msg, size_t len, int mboxrd, const char *path, long line0,
		struct mail_msg *out, struct kb_err *err);
void mail_msg_release(struct mail_msg *m);

/* The display name of a From value ("Erich Focht <e@x>" -> "Erich Focht",
 * "e@x (Erich Focht)" -> "Erich Focht"), malloc'd. */
char *mail_author(const char *from);

/* "Erich Focht, 2002-10-07, Re: [PATCH] node affine NUMA scheduler"
 * appended to out: the author, the day of date and the subject, each
 * left out when NULL. */
void mail_byline(const char *from, const char *date, const char *subject, struct buf *out);

#endif
