/*
 * pnginfo.c - test helper: decode PNG files with cairo and print
 *
 *   FILE WIDTHxHEIGHT colors=N
 *
 * where N counts distinct pixel values (capped at 100000), so a test can
 * tell a real picture from a blank one.  `pnginfo --count RRGGBB FILE...`
 * prints "FILE N" instead: N pixels are exactly that opaque colour (a
 * bar's fill), so a test can tell which colours a chart uses.  Exit status 1 when a file does
 * not decode.  Built by `make check-build` as $(BUILD)/chk/pnginfo.
 */
#include <cairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static long want = -1;      /* --count: 0xRRGGBB */

static int info(const char *path)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(path);
	int w, h, stride, x, y;
	size_t n = 0, distinct = 0, i;
	uint32_t *px;
	unsigned char *data;

	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "%s: %s\n", path, cairo_status_to_string(cairo_surface_status(s)));
		cairo_surface_destroy(s);
		return -1;
	}
	cairo_surface_flush(s);
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	stride = cairo_image_surface_get_stride(s);
	data = cairo_image_surface_get_data(s);
	px = malloc(((size_t)w * (size_t)h + 1) * sizeof(*px));
	if (!px) {
		cairo_surface_destroy(s);
		return -1;
	}
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint32_t v;

			memcpy(&v, data + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
			px[n++] = v;
		}
	if (want >= 0) {
		size_t k = 0;

		/* cairo's ARGB32, native endian: opaque = alpha 0xFF */
		for (i = 0; i < n; i++)
			if (px[i] == (0xFF000000u | (uint32_t)want))
				k++;
		printf("%s %zu\n", path, k);
		free(px);
		cairo_surface_destroy(s);
		return 0;
	}
	qsort(px, n, sizeof(*px), cmp_u32);
	for (i = 0; i < n && distinct < 100000; i++)
		if (i == 0 || px[i] != px[i - 1])
			distinct++;
	printf("%s %dx%d colors=%zu\n", path, w, h, distinct);
	free(px);
	cairo_surface_destroy(s);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, rc = 0;

	if (argc > 2 && !strcmp(argv[1], "--count")) {
		want = strtol(argv[2], NULL, 16);
		i = 3;
	}
	if (argc < i + 1) {
		fprintf(stderr, "usage: pnginfo FILE.png...\n");
		return 2;
	}
	for (; i < argc; i++)
		if (info(argv[i]) < 0)
			rc = 1;
	return rc;
}
