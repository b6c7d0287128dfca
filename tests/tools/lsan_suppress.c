/*
 * chart_lsan.c - LeakSanitizer suppressions for the chart engine's
 * libraries.  fontconfig (reached through pango) builds its font
 * configuration once per process and keeps it until exit; those caches
 * are not leaks of ours.  Only library-internal frames are listed, so a
 * leak in kbench's own code is still reported.  The hook is read by the
 * sanitizer runtime only; in builds without it the function is unused.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);

const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/* Keep the report quiet when only these suppressions matched. */
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
