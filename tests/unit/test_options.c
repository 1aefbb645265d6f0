/* test_options.c: the option machinery (src/cli/parse-options.h) on a
 * declaration made for the test, the format table, the one escaping walk
 * and the chain of layers (src/core/utf8.h, layers.h). */
#include "testutil.h"

#include "cli/cli.h"
#include "core/layers.h"
#include "core/strbuf.h"
#include "core/utf8.h"
#include "probes/registry.h"
#include "report/format.h"

struct t_args {
	bool verbose, quiet;
	const char *file, *out, *log;
	int count;
	struct format_choice format;
};

static int t_count(struct parse_state *ps, const struct cli_option *o, const char *arg,
		   void *value)
{
	(void)o;
	char *end;
	long n = strtol(arg, &end, 10);
	if (*end || n < 0)
		return parse_error(ps, "--count: '%s' is not a count", arg);
	*(int *)value = (int)n;
	return 0;
}

#define ARGS struct t_args
static const struct cli_option t_options[] = {
	OPT_BOOL('v', "verbose", ARGS, verbose, "say more"),
	OPT_BOOL('q', "quiet", ARGS, quiet, "say less"),
	OPT_FILE('f', "file", ARGS, file, "FILE", "read FILE"),
	OPT_OUTPUT_FILE('o', "output", ARGS, out, "FILE", "write FILE"),
	OPT_OUTPUT_FILE(0, "log", ARGS, log, "FILE", "also write a log to FILE"),
	OPT_CALLBACK(0, "count", ARGS, count, "N", "how many", t_count),
	OPT_FORMATS(ARGS, format),
	OPT_END(),
};
#undef ARGS
static const char *const t_usage[] = { "wslgpu check [OPTIONS] [WORD...]", NULL };
/* Named "check" so that the format table's rows for check are its formats. */
static const struct cli_command t_command = {
	.name = "check", .usage = t_usage, .about = "A test.\n", .options = t_options,
	.epilog = "The end.\n",
};

/* Parses the words (NULL-terminated) into a; the operands left in *ops. */
static int parse(struct t_args *a, char **ops, ...)
{
	static char *argv[32];
	va_list ap;
	va_start(ap, ops);
	int argc = 0;
	argv[argc++] = "check";
	for (char *w; (w = va_arg(ap, char *)) != NULL;)
		argv[argc++] = w;
	va_end(ap);
	argv[argc] = NULL;
	memset(a, 0, sizeof *a);
	int n = parse_options(&t_command, argc, argv, a);
	for (int i = 0; i < n && ops; i++)
		ops[i] = argv[i];
	return n;
}

static void test_parse(void **state)
{
	(void)state;
	struct t_args a;
	char *ops[8];
	/* flags, clusters, values in both forms, operands between options */
	assert_int_equal(parse(&a, ops, "-vq", "one", "--file", "in.txt", "two", "--count=3", NULL), 2);
	assert_true(a.verbose && a.quiet);
	assert_string_equal(a.file, "in.txt");
	assert_int_equal(a.count, 3);
	assert_string_equal(ops[0], "one");
	assert_string_equal(ops[1], "two");
	assert_int_equal(parse(&a, ops, "-fin", "-o", "-", "--", "--verbose", NULL), 1);
	assert_string_equal(a.file, "in");
	assert_string_equal(a.out, "-");
	assert_false(a.verbose);
	assert_string_equal(ops[0], "--verbose");
	/* a unique prefix, as getopt_long */
	assert_int_equal(parse(&a, NULL, "--verb", "--cou", "7", NULL), 0);
	assert_true(a.verbose);
	assert_int_equal(a.count, 7);
	/* the format options of the table's rows for check */
	assert_int_equal(parse(&a, NULL, "--json", NULL), 0);
	assert_non_null(a.format.out);
	assert_string_equal(a.format.out->name, "json");
	assert_int_equal(parse(&a, NULL, "--brief", NULL), 0);
	assert_string_equal(a.format.out->name, "brief");
	/* errors: unknown, ambiguous, a value missing, a value given to a
	 * flag, an empty value, a callback's refusal, two formats for stdout */
	assert_int_equal(parse(&a, NULL, "--jsn", NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "-x", NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "--file", NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "--verbose=yes", NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "--file=", NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "--count", "x", NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "--json", "--brief", NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "--json", "--json", NULL), 0);
	assert_int_equal(parse_exit(PARSE_ERROR), EXIT_USAGE);
	assert_int_equal(parse_exit(PARSE_HELP), EXIT_OK);
}

static void test_outputs(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	char *a1 = xasprintf("%s/a", d), *a2 = xasprintf("%s/./a", d), *b = xasprintf("%s/b", d);
	struct t_args a;
	/* the same file, spelt two ways, for two outputs */
	assert_int_equal(parse(&a, NULL, "-o", a1, "--log", a2, NULL), PARSE_ERROR);
	assert_int_equal(parse(&a, NULL, "-o", a1, "--log", b, NULL), 0);
	/* a repeated option's last value is its output */
	assert_int_equal(parse(&a, NULL, "-o", a1, "-o", b, "--log", a1, NULL), 0);
	assert_string_equal(a.out, b);
	/* written through, not replaced: standard output and devices */
	assert_int_equal(parse(&a, NULL, "-o", "-", "--log", "-", NULL), 0);
	assert_int_equal(parse(&a, NULL, "-o", "/dev/null", "--log", "/dev/null", NULL), 0);
	free(a1);
	free(a2);
	free(b);
	tu_rmtree(d);
	free(d);
}

static void test_declarations(void **state)
{
	(void)state;
	struct cli_option opts[PARSE_MAX_OPTIONS], tmp;
	size_t n = parse_options_list(&t_command, opts, PARSE_MAX_OPTIONS);
	/* six declared, the formats check offers by option, and --help */
	size_t nf, offered = 0;
	const struct format *f = formats(&nf);
	for (size_t i = 0; i < nf; i++)
		offered += f[i].help && format_offered(&f[i], "check");
	assert_int_equal(n, 6 + offered + 1);
	assert_int_equal(opts[n - 1].type, OPTION_HELP);
	const struct cli_option *o = parse_options_find(&t_command, "--output=x", &tmp);
	assert_non_null(o);
	assert_int_equal(o->short_name, 'o');
	assert_non_null(parse_options_find(&t_command, "-v", &tmp));
	assert_non_null(parse_options_find(&t_command, "--brief", &tmp));
	assert_null(parse_options_find(&t_command, "--verb", &tmp)); /* main takes no prefix */

	struct strbuf sb = STRBUF_INIT;
	parse_options_help(&t_command, &sb);
	assert_non_null(strstr(sb.buf, "usage: wslgpu check [OPTIONS] [WORD...]\n\nA test.\n\n"));
	assert_non_null(strstr(sb.buf, "\n  -v, --verbose        say more\n"));
	assert_non_null(strstr(sb.buf, "\n      --count N        how many\n"));
	assert_non_null(strstr(sb.buf, "\n  -h, --help           show this help\n\nThe end.\n"));
	sb_reset(&sb);
	parse_options_complete(&t_command, &sb);
	assert_non_null(strstr(sb.buf, "-f\t--file\tFILE\tfile\tread FILE\n"));
	assert_non_null(strstr(sb.buf, "-\t--count\tN\tnothing\thow many\n"));
	assert_non_null(strstr(sb.buf, "-\t--json\t-\tnothing\t"));
	sb_release(&sb);
}

static void test_formats(void **state)
{
	(void)state;
	size_t n;
	const struct format *f = formats(&n);
	assert_true(n <= FORMAT_MAX);
	/* every command that writes through the table has its default */
	const char *const cmds[] = { "check", "smoke", "explain", "fix" };
	for (size_t i = 0; i < 4; i++)
		assert_non_null(format_find(cmds[i], NULL));
	assert_non_null(format_find("report", "markdown"));
	assert_null(format_find("check", "junit"));
	assert_non_null(format_find("smoke", "junit"));
	assert_non_null(format_find("smoke", "junit")->argh);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(format_index(&f[i]), i);
		assert_non_null(f[i].write);
		/* no command offers two rows by one name */
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(f[i].name, f[j].name))
				for (const char *c = f[i].commands; *c;) {
					size_t l = strcspn(c, " ");
					char *cmd = xstrndup(c, l);
					assert_false(format_offered(&f[j], cmd));
					free(cmd);
					c += l + strspn(c + l, " ");
				}
	}
}

static void upper_put(struct strbuf *out, const unsigned char *ch, int n, const void *ctx)
{
	(void)ctx;
	if (n == 0)
		sb_add(out, "<bad>");
	else if (n == 1)
		sb_addf(out, "<%02x>", ch[0]);
	else
		sb_addf(out, "<%d>", n);
}

static void test_utf8(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	const char s[] = "a-b\tc\xc3\xa9\xff" "d";
	struct utf8_escape e = { "-", upper_put, NULL, 0 };
	utf8_escape(&sb, s, sizeof s - 1, &e);
	assert_string_equal(sb.buf, "a<2d>b<09>c<2><bad>d");
	sb_reset(&sb);
	e.max = 3; /* stops before a character once 3 bytes are out */
	utf8_escape(&sb, "abcdef", 6, &e);
	assert_string_equal(sb.buf, "abc");
	sb_reset(&sb);
	text_escape(&sb, "a\nb\x1b[31m\xe2\x80\xae\xc2\x85\xff\\ok \xc3\xa9");
	assert_string_equal(sb.buf, "a\\nb\\x1b[31m\\u202e\\u0085\\xff\\ok \xc3\xa9");
	sb_reset(&sb);
	text_sanitize_line(&sb, "x\ny\x1b\xe2\x80\xa8z");
	assert_string_equal(sb.buf, "x" TEXT_LINE_BREAK "y" TEXT_LINE_BREAK "z");
	sb_release(&sb);
}

static void test_layers(void **state)
{
	(void)state;
	size_t nl, n;
	const struct layer *l = layers_in_order(&nl);
	assert_string_equal(l[0].name, "platform");
	assert_string_equal(l[nl - 1].name, "policy");
	assert_int_equal(layer_index("libs"), 3);
	assert_int_equal(layer_index("core"), -1);
	/* the registry files every check in the chain's order */
	const struct check_def *defs = registry_checks(&n);
	int last = 0;
	for (size_t i = 0; i < n; i++) {
		int k = layer_index(defs[i].layer);
		assert_true(k >= last);
		last = k;
	}
	const char *names[32];
	size_t k = layer_list_begin(names, 32);
	assert_int_equal(k, nl);
	k = layer_list_add(names, k, 32, "core");
	k = layer_list_add(names, k, 32, "libs");
	assert_int_equal(k, nl + 1);
	assert_string_equal(names[nl], "core");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),   cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_declarations), cmocka_unit_test(test_formats),
		cmocka_unit_test(test_utf8),    cmocka_unit_test(test_layers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
