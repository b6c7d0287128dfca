#!/usr/bin/env python3
"""Write the test mail threads of tests/cli/mail.sh from real posts.

  mkmbox.py seeds SEEDS_DIR NUMATEST_QP OUT.mbox
      One message per seed (000..004), with the headers the posts carry
      (author, date and subject as the archive shows them), threaded by
      In-Reply-To; seed 001 is sent base64-encoded (UTF-8), seed 002's
      subject as an RFC 2047 encoded word.  A sixth message carries the
      numa_test output of samples/numatest/ as a quoted-printable MIME
      attachment (the file is the attachment as it was mailed) below an
      ISO-8859-1 text part; a seventh is HTML only; an eighth a reply with
      no numbers.  Message bodies are the seed files byte for byte, so
      what a message yields can be compared with importing the seed file.

  mkmbox.py quoted SEEDS_DIR NUMATEST_QP OUT.mbox
      A two-message thread: the numa_test post of the attachment, then a
      reply quoting its raw numa_test blocks with "> " (the copy the
      "keep apart" work recognises: the runs must be stored once).

  mkmbox.py maildir SEEDS_DIR NUMATEST_QP OUT_DIR
      The seed thread as a Maildir (cur/, new/, tmp/), one file a message.

  mkmbox.py posts OUT.mbox MAIL...
      Real messages (tests/realposts/*.mail, byte for byte as the archive
      serves them) as one mboxrd file, in the order given, as
      lore.kernel.org's t.mbox.gz writes a thread: each message after a
      "From mboxrd@z Thu Jan  1 00:00:00 1970" line, its body lines
      matching /^>*From / quoted with one more '>', a blank line after it.
      samples/mail/ is made so (samples/README.md).
"""
import base64
import os
import sys

SEEDS = [
    # file, from, date, subject (as the archive shows them), message-id
    ("000_009ccda627cb3777.txt", "Erich Focht <efocht@ess.nec.de>",
     "Sun, 6 Oct 2002 09:51:12 +0200", "NUMA schedulers tests",
     "200210060951.12345.efocht@ess.nec.de"),
    ("001_84b93bea668f5b54.txt", "Michael Hohnbaum <hohnbaum@us.ibm.com>",
     "Mon, 7 Oct 2002 11:37:51 -0500", "Re: [RFC] NUMA schedulers benchmark results",
     "1034008671.1581.24.camel@dyn9-47-17-164.beaverton.ibm.com"),
    ("002_c5c123cd839d7edc.txt", "Srikar Dronamraju <srikar@linux.vnet.ibm.com>",
     "Thu, 27 Jun 2013 20:23:05 +0530",
     "Re: [PATCH 0/6] Basic scheduler support for automatic NUMA balancing",
     "20130627145305.GA1398@linux.vnet.ibm.com"),
    ("003_7caa478a1fca98f9.txt", "Michael Hohnbaum <hohnbaum@us.ibm.com>",
     "Tue, 21 Jan 2003 16:02:33 -0800", "Re: [patch] HT scheduler, sched-2.5.59-D7",
     "1043193753.1213.41.camel@dyn9-47-17-164.beaverton.ibm.com"),
    ("004_6cdb76245787edd0.txt", "Erich Focht <efocht@ess.nec.de>",
     "Fri, 15 Mar 2002 10:12:47 +0100", "Re: Node affine NUMA scheduler",
     "Pine.LNX.4.21.0203151001310.2105-100000@sx6.ess.nec.de"),
]

ATTACH_ID = "1034186235.1592.48.camel@dyn9-47-17-164.beaverton.ibm.com"


def headers(frm, date, subject, msgid, reply_to=None, extra=()):
    h = ["From: " + frm, "Date: " + date, "Subject: " + subject,
         "Message-ID: <%s>" % msgid]
    if reply_to:
        h.append("In-Reply-To: <%s>" % reply_to)
        h.append("References: <%s>" % reply_to)
    h.append("MIME-Version: 1.0")
    h.extend(extra)
    return "\n".join(h) + "\n"


def mbox_from(frm, date):
    addr = frm.split("<")[1].rstrip(">")
    return "From %s %s\n" % (addr, date)


def escape_from(body):
    """mboxrd: quote lines starting with (>*)From ."""
    out = []
    for line in body.split("\n"):
        if line.lstrip(">").startswith("From "):
            line = ">" + line
        out.append(line)
    return "\n".join(out)


def qp_subject(s):
    enc = "".join(c if c.isalnum() else "=%02X" % ord(c) for c in s)
    return "=?iso-8859-1?q?" + enc.replace("=20", "_") + "?="


def seed_messages(seeds_dir, numatest_qp):
    """(from-line, raw message) pairs of the seed thread."""
    msgs = []
    prev = None
    for i, (name, frm, date, subject, msgid) in enumerate(SEEDS):
        with open(os.path.join(seeds_dir, name), "rb") as f:
            body = f.read().decode("utf-8")
        subj = subject
        if i == 2:
            # an encoded word, as many mailers write a subject
            words = subject.split(" ")
            subj = qp_subject(" ".join(words[:4])) + " " + " ".join(words[4:])
        if i == 1:
            h = headers(frm, date, subj, msgid, prev,
                        ["Content-Type: text/plain; charset=utf-8",
                         "Content-Transfer-Encoding: base64"])
            b = base64.encodebytes(body.encode("utf-8")).decode("ascii")
        else:
            h = headers(frm, date, subj, msgid, prev,
                        ["Content-Type: text/plain; charset=us-ascii",
                         "Content-Transfer-Encoding: 7bit"])
            b = body
        msgs.append((mbox_from(frm, date), h + "\n" + b))
        prev = msgid
    msgs.append((mbox_from(SEEDS[1][1], "Wed, 9 Oct 2002 10:57:15 -0700"),
                 attachment_message(numatest_qp, SEEDS[0][4])))
    msgs.append((mbox_from("Jesse Barnes <jbarnes@sgi.com>", "Wed, 9 Oct 2002 12:01:44 -0700"),
                 headers("Jesse Barnes <jbarnes@sgi.com>", "Wed, 9 Oct 2002 12:01:44 -0700",
                         "Re: [RFC] NUMA schedulers benchmark results",
                         "20021009190144.GA4410@sgi.com", ATTACH_ID,
                         ["Content-Type: text/html; charset=us-ascii"]) +
                 "\n<html><body><p>Time: 5.54</p></body></html>\n"))
    msgs.append((mbox_from(SEEDS[0][1], "Thu, 10 Oct 2002 09:15:02 +0200"),
                 headers(SEEDS[0][1], "Thu, 10 Oct 2002 09:15:02 +0200",
                         "Re: [RFC] NUMA schedulers benchmark results",
                         "200210100915.02210.efocht@ess.nec.de", ATTACH_ID,
                         ["Content-Type: text/plain; charset=us-ascii"]) +
                 "\nThanks, Michael.\n\nFrom what I see the node affine scheduler keeps its\n"
                 "advantage.  I will rerun with 2.5.41.\n\nRegards,\nErich\n"))
    return msgs


def attachment_message(numatest_qp, reply_to):
    with open(numatest_qp, "rb") as f:
        att = f.read().decode("ascii")
    text = ("Erich,\n\nhere are the numa_test results of 2.5.41 with my scheduler\n"
            "(rev 1), attached.  Gr\xfc\xdfe to the NEC folks.\n\n  Michael\n")
    text_qp = "".join(c if ord(c) < 128 and c != "=" else "=%02X" % ord(c) for c in text)
    boundary = "=-AbC9x7Qk/2LhGq0s4Zy1"
    h = headers("Michael Hohnbaum <hohnbaum@us.ibm.com>", "Wed, 9 Oct 2002 10:57:15 -0700",
                "numa_test results for 2.5.41, node affine rev 1", ATTACH_ID, reply_to,
                ['Content-Type: multipart/mixed; boundary="%s"' % boundary])
    return (h + "\nThis is a multi-part message in MIME format.\n\n"
            "--%s\nContent-Type: text/plain; charset=ISO-8859-1\n"
            "Content-Transfer-Encoding: quoted-printable\n\n%s\n"
            "--%s\nContent-Type: text/plain; name=numa_test.41_rev1; charset=us-ascii\n"
            "Content-Disposition: attachment; filename=numa_test.41_rev1\n"
            "Content-Transfer-Encoding: quoted-printable\n\n%s\n"
            "--%s--\n" % (boundary, text_qp, boundary, att, boundary)).encode("latin-1").decode("latin-1")


def quoted_thread(numatest_qp, decoded):
    first = attachment_message(numatest_qp, SEEDS[0][4])
    with open(decoded, "rb") as f:
        blocks = f.read().decode("ascii")
    quoted = "\n".join(("> " + l) if l else ">" for l in blocks.rstrip("\n").split("\n"))
    reply = (headers("Erich Focht <efocht@ess.nec.de>", "Thu, 10 Oct 2002 09:15:02 +0200",
                     "Re: numa_test results for 2.5.41, node affine rev 1",
                     "200210100915.02211.efocht@ess.nec.de", ATTACH_ID,
                     ["Content-Type: text/plain; charset=us-ascii"]) +
             "\nOn Wed, 2002-10-09 at 19:57, Michael Hohnbaum wrote:\n" + quoted +
             "\n\nThe 12 task case looks much better than before.\n\nErich\n")
    return [(mbox_from(SEEDS[1][1], "Wed, 9 Oct 2002 10:57:15 -0700"), first),
            (mbox_from(SEEDS[0][1], "Thu, 10 Oct 2002 09:15:02 +0200"), reply)]


def write_mbox(msgs, out):
    with open(out, "wb") as f:
        for fromline, raw in msgs:
            raw = escape_from(raw)
            if not raw.endswith("\n"):
                raw += "\n"
            f.write((fromline + raw + "\n").encode("latin-1" if "\xfc" in raw else "utf-8"))


def posts_mbox(out, mails):
    with open(out, "wb") as f:
        for m in mails:
            with open(m, "rb") as g:
                raw = g.read()
            lines = raw.split(b"\n")
            for i, line in enumerate(lines):
                if line.lstrip(b">").startswith(b"From "):
                    lines[i] = b">" + line
            raw = b"\n".join(lines)
            if not raw.endswith(b"\n"):
                raw += b"\n"
            f.write(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + raw + b"\n")


def main():
    if sys.argv[1:2] == ["posts"]:
        posts_mbox(sys.argv[2], sys.argv[3:])
        return
    mode, seeds_dir, numatest_qp, out = sys.argv[1:5]
    if mode == "seeds":
        write_mbox(seed_messages(seeds_dir, numatest_qp), out)
    elif mode == "quoted":
        decoded = numatest_qp.replace(".qp.txt", ".decoded.txt")
        write_mbox(quoted_thread(numatest_qp, decoded), out)
    elif mode == "maildir":
        for d in ("cur", "new", "tmp"):
            os.makedirs(os.path.join(out, d), exist_ok=True)
        for i, (_, raw) in enumerate(seed_messages(seeds_dir, numatest_qp)):
            name = "%d.M%dP4242.box:2,S" % (1034000000 + i, i)
            with open(os.path.join(out, "cur", name), "wb") as f:
                f.write(raw.encode("latin-1" if "\xfc" in raw else "utf-8"))
    else:
        sys.exit("mkmbox.py: unknown mode " + mode)


if __name__ == "__main__":
    main()
