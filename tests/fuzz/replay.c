/*
 * replay.c - runs the fuzz target (fuzz_import.c) over files without
 * libFuzzer, so `make check` replays the committed corpus and every past
 * crash input under ASan+UBSan.  Usage: replay FILE|DIR...  (a directory's
 * regular files, not recursive).  Prints "replay: N inputs" and exits 0,
 * or dies in the sanitizer on the input that fails (named on stderr first).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			data = realloc(data, cap);
			if (!data) {
				fclose(f);
				fprintf(stderr, "replay: out of memory\n");
				return -1;
			}
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(data);
		return -1;
	}
	fclose(f);
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(data, len);
	free(data);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	long count = 0;
	int i;

	for (i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			return 2;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			char **names = NULL;
			size_t n = 0, k;
			if (!d) {
				perror(argv[i]);
				return 2;
			}
			while ((e = readdir(d))) {
				if (e->d_name[0] == '.')
					continue;
				names = realloc(names, (n + 1) * sizeof(*names));
				if (!names)
					return 2;
				names[n] = malloc(strlen(argv[i]) + strlen(e->d_name) + 2);
				if (!names[n])
					return 2;
				sprintf(names[n++], "%s/%s", argv[i], e->d_name);
			}
			closedir(d);
			qsort(names, n, sizeof(*names), cmp_names);
			for (k = 0; k < n; k++) {
				if (run_file(names[k]) < 0)
					return 2;
				count++;
				free(names[k]);
			}
			free(names);
		} else {
			if (run_file(argv[i]) < 0)
				return 2;
			count++;
		}
	}
	printf("replay: %ld inputs\n", count);
	return 0;
}
