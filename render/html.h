/*
 * html.h - the one way text gets into kbench's HTML: html_escape() for
 * every string that came from the user or the data (variant names,
 * descriptions, paths, commands, configs, notes), html_base64() for
 * embedded images.
 *
 * Both append to a struct buf and never fail (out of memory aborts).
 */
#ifndef KB_RENDER_HTML_H
#define KB_RENDER_HTML_H

#include <stddef.h>

struct buf;

/* Append s with & < > " ' replaced by entities, so the result is safe
 * both as element text and inside a double- or single-quoted attribute.
 * Bytes that are not valid UTF-8 and control characters other than tab
 * and newline become U+FFFD, so a stray byte cannot break the page's
 * encoding.  s may be NULL (appends nothing). */
void html_escape(struct buf *out, const char *s);

/* Append the path s as the path of a URL (an href or src): every byte
 * but the unreserved ones (RFC 3986: letters, digits, - . _ ~) and '/'
 * percent-encoded, so '#', '?', '%' and blanks in a directory name stay
 * part of the path.  The result needs no further HTML escaping. */
void html_url_path(struct buf *out, const char *s);

/* Append n bytes of data as standard base64 (RFC 4648, with padding). */
void html_base64(struct buf *out, const void *data, size_t n);

#endif
