/*
 * bridge.c: the device node between Linux and the GPU driver — /dev/dxg on
 * WSL2, /dev/nvidiactl, /dev/nvidia<N> and /dev/nvidia-uvm on native Linux.
 *
 * On WSL2 the dxgkrnl driver of the WSL kernel registers /dev/dxg as a misc
 * character device (major 10, dynamic minor, mode 0666; research §2.1), and
 * libcuda talks to the Windows driver through it. WSL2 has no /dev/nvidia*
 * nodes at all (FACTS.md): seeing them there means someone created them,
 * usually after a guide that claims they exist.
 *
 * /dev/dxg is registered when dxgkrnl loads, before any GPU adapter is
 * probed, so its presence does not prove there is a GPU (the cuda and nvml
 * layers prove that), and its absence is not explained by anything on the
 * Windows side (an old driver, TCC mode, an old Windows build show as no
 * CUDA device) nor by /etc/wsl.conf [gpu] enabled=false (which stops only
 * WSL's library mounts: libs.wsl_dir). When it is missing, the probe names
 * what remains: a container started without the device, a custom kernel
 * without dxgkrnl, or an old WSL kernel.
 *
 * A device node is stat'ed, must be a character device, and is opened
 * read-write and closed: that is what libcuda does first. In fixture mode a
 * regular file stands in for a node (device nodes cannot live in git).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../core/rootfs.h"
#include "../facts/osrelease.h"
#include "../facts/wslhost.h"
#include "../parse/inifile.h"
#include "../parse/version.h"
#include "../parse/wslconfig.h"
#include "probes.h"
#include "kb_ids.h"

#define MISC_MAJOR 10    /* include/uapi/linux/major.h */
#define NVIDIA_MAJOR 195 /* /dev/nvidiactl is c 195 255, /dev/nvidia<N> c 195 N */

enum node_state { NODE_OK, NODE_MISSING, NODE_NOT_CHAR, NODE_DENIED, NODE_BROKEN };

struct node {
	enum node_state state;
	int err;        /* errno of the step that failed */
	struct stat st;
	bool stand_in;  /* a regular file accepted in fixture mode */
};

static const char *file_type(mode_t m)
{
	if (S_ISREG(m)) return "regular file";
	if (S_ISDIR(m)) return "directory";
	if (S_ISLNK(m)) return "symbolic link";
	if (S_ISFIFO(m)) return "FIFO";
	if (S_ISSOCK(m)) return "socket";
	if (S_ISBLK(m)) return "block device";
	if (S_ISCHR(m)) return "character device";
	return "special file";
}

/* stat, type check, open O_RDWR (rootfs adds O_NONBLOCK), close. */
static void check_node(const char *path, struct node *n)
{
	memset(n, 0, sizeof *n);
	int rc = rootfs_stat(path, &n->st);
	if (rc < 0) {
		n->state = rc == -ENOENT || rc == -ENOTDIR ? NODE_MISSING : NODE_BROKEN;
		n->err = -rc;
		return;
	}
	if (S_ISREG(n->st.st_mode) && !rootfs_is_real()) {
		n->stand_in = true;
	} else if (!S_ISCHR(n->st.st_mode)) {
		n->state = NODE_NOT_CHAR;
		return;
	}
	int fd = rootfs_open(path, O_RDWR);
	if (fd < 0) {
		n->err = -fd;
		n->state = fd == -EACCES || fd == -EPERM ? NODE_DENIED : NODE_BROKEN;
		return;
	}
	close(fd);
	n->state = NODE_OK;
}

/* "character device 10:61, mode 0666" / "regular file (fixture stand-in)". */
static void describe_node(const struct node *n, struct strbuf *out)
{
	sb_reset(out);
	if (n->state == NODE_MISSING) {
		sb_add(out, "missing");
		return;
	}
	if (n->stand_in)
		sb_add(out, "regular file (fixture stand-in)");
	else if (S_ISCHR(n->st.st_mode))
		sb_addf(out, "character device %u:%u, mode %04o", major(n->st.st_rdev),
			minor(n->st.st_rdev), (unsigned)(n->st.st_mode & 07777));
	else
		sb_addf(out, "%s, mode %04o", file_type(n->st.st_mode),
			(unsigned)(n->st.st_mode & 07777));
	if (n->state == NODE_DENIED || n->state == NODE_BROKEN)
		sb_addf(out, "; open: %s", strerror(n->err));
}

/* Group name of gid from the described machine's /etc/group. */
static void group_name(gid_t gid, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	sb_reset(out);
	if (rootfs_read("/etc/group", 1 << 20, &t, NULL) == 0) {
		for (char *line = t.buf, *next; line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
			if (c2 && strtoul(c2 + 1, NULL, 10) == gid && c2[1] >= '0' && c2[1] <= '9') {
				sb_addn(out, line, (size_t)(c1 - line));
				break;
			}
		}
	}
	if (!out->len)
		sb_addf(out, "%u", (unsigned)gid);
	sb_release(&t);
}

/* Evidence for a denied open: mode, owner, and who we are. */
static void denied_evidence(struct result *r, const char *path, const struct node *n)
{
	struct strbuf g = STRBUF_INIT;
	group_name(n->st.st_gid, &g);
	res_ev(r, "node", "%s", path);
	res_ev(r, "owner", "uid %u, group %s, mode %04o", (unsigned)n->st.st_uid, g.buf,
	       (unsigned)(n->st.st_mode & 07777));
	res_ev(r, "group", "%s", g.buf);
	res_ev(r, "you", "uid %u", (unsigned)geteuid());
	sb_release(&g);
}

static const char *platform_words(const char *kind)
{
	if (!strcmp(kind, "native")) return "native Linux";
	if (!strcmp(kind, "container")) return "a container on native Linux";
	if (!strcmp(kind, "wsl2")) return "WSL2";
	if (!strcmp(kind, "container-in-wsl2")) return "a container inside WSL2";
	return "this machine";
}

/* The settings of every .wslconfig that bear on the GPU. */
struct gpu_config {
	char *gpu_off;     /* "C:\...\.wslconfig line 3: gpuSupport=false", or NULL */
	char *kernel;      /* "C:\...\.wslconfig line 4: kernel=C:\\k\\bzImage", or NULL */
};

static void read_gpu_config(struct gpu_config *g)
{
	memset(g, 0, sizeof *g);
	size_t n;
	char **files = wslhost_wslconfigs(&n);
	struct strbuf t = STRBUF_INIT, win = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (rootfs_read(files[i], 1 << 20, &t, NULL) < 0)
			continue;
		struct wslconfig wc;
		wslconfig_check(t.buf, t.len, &wc);
		wslhost_windows_path(files[i], &win);
		if (!g->gpu_off && wc.gpu_support.set && wc.gpu_support.val == 0)
			g->gpu_off = xasprintf("%s line %d: gpuSupport=%s", win.buf,
					       wc.gpu_support.line, wc.gpu_support.text);
		/* Safe mode forces GPU support off as well (WslCoreConfig.cpp). */
		if (!g->gpu_off && wc.safe_mode.set && wc.safe_mode.val == 1)
			g->gpu_off = xasprintf("%s line %d: safeMode=%s", win.buf,
					       wc.safe_mode.line, wc.safe_mode.text);
		if (!g->kernel && wc.kernel.set)
			g->kernel = xasprintf("%s line %d: kernel=%s", win.buf, wc.kernel.line,
					      wc.kernel.text);
		wslconfig_free(&wc);
	}
	wslhost_free_list(files, n);
	sb_release(&t);
	sb_release(&win);
}

static void free_gpu_config(struct gpu_config *g)
{
	free(g->gpu_off);
	free(g->kernel);
}

/* /etc/wsl.conf [gpu] enabled, as WSL's parser reads it (true/false/1/0);
 * value receives what the file says. */
static bool wsl_conf_gpu_off(struct result *r, struct strbuf *value)
{
	struct inifile ini;
	int rc = wslhost_wsl_conf(&ini);
	bool off = false;
	if (rc == 0) {
		const struct inifile_item *it = inifile_find(&ini, "gpu", "enabled");
		if (it) {
			res_ev(r, "wsl_conf", "/etc/wsl.conf line %d: [gpu] enabled=%s", it->line,
			       it->value);
			sb_reset(value);
			sb_add(value, it->value);
			off = wslconfig_bool(it->value) == 0;
		} else {
			res_ev(r, "wsl_conf", "/etc/wsl.conf has no [gpu] enabled (default true)");
		}
	} else if (rc != -ENOENT) {
		res_ev(r, "wsl_conf", "/etc/wsl.conf unreadable: %s", strerror(-rc));
	}
	inifile_free(&ini);
	return off;
}

/* /dev/dxg is missing on WSL2: find out why from what the files show. */
static void dxg_missing(struct probe_ctx *ctx, struct result *r)
{
	const char *kind = probe_platform(ctx);
	const char *kernel = probe_dep_get(ctx, "platform.kind", "kernel");
	res_ev(r, "type", "missing");

	if (!strcmp(kind, "container-in-wsl2")) {
		probe_image_ev(ctx, r);
		res_set(r, ST_FAIL, KB_BRIDGE_DXG_CONTAINER,
			"/dev/dxg is missing: this container was started without the GPU "
			"(docker run --gpus all)");
		return;
	}
	probe_step(ctx, "reading /etc/wsl.conf and .wslconfig");
	struct strbuf conf_value = STRBUF_INIT;
	bool conf_off = wsl_conf_gpu_off(r, &conf_value);
	struct gpu_config g;
	read_gpu_config(&g);
	if (g.gpu_off)
		res_ev(r, "wslconfig", "%s", g.gpu_off);
	if (g.kernel)
		res_ev(r, "wslconfig_kernel", "%s", g.kernel);

	/* What the Windows side shipped: libdxcore and the driver store. */
	struct stat st;
	bool have_lib = rootfs_stat("/usr/lib/wsl/lib", &st) == 0 && S_ISDIR(st.st_mode);
	bool have_dxcore = rootfs_stat("/usr/lib/wsl/lib/libdxcore.so", &st) == 0;
	res_ev(r, "libdxcore", "%s", !have_lib ? "/usr/lib/wsl/lib is missing"
				     : have_dxcore ? "/usr/lib/wsl/lib/libdxcore.so present"
						   : "/usr/lib/wsl/lib/libdxcore.so missing");
	probe_step(ctx, "scanning %s", WSLHOST_DRIVERS);
	struct nv_stores stores;
	const char *driver = NULL;
	if (wslhost_scan_stores(&stores) == 0 && stores.n) {
		const struct nv_store *s = &stores.v[wslhost_newest_store(&stores)];
		if (s->version[0]) {
			driver = s->version;
			res_ev(r, "windows_driver", "%s (estimated from the .inf DriverVer in %s)",
			       s->version, s->path);
			res_ev(r, "driver", "%s", s->version);
		}
	}
	/* dxgkrnl registers /dev/dxg when the module loads, before any GPU
	 * is found (WSL2-Linux-Kernel drivers/hv/dxgkrnl/dxgmodule.c), and
	 * WSL's init never removes it: [gpu] enabled=false only stops the
	 * library mounts, ld.wsl.conf and the PATH entry (microsoft/WSL
	 * src/linux/init/config.cpp; that is libs.wsl_dir's finding), and an
	 * old driver, TCC mode or an old Windows show as cuInit 100 or no
	 * adapter. What is left: a kernel without dxgkrnl, or an old one. */
	bool custom = g.kernel || (kernel && !strcasestr(kernel, "microsoft"));
	if (conf_off)
		res_ev(r, "note", "[gpu] enabled=%s does not remove /dev/dxg: it stops WSL's GPU "
				  "library mounts (see libs.wsl_dir)", conf_value.buf);
	if (driver)
		res_ev(r, "note", "an old Windows driver or a TCC-mode GPU does not remove /dev/dxg "
				  "on current kernels: it shows as no CUDA device");
	if (custom) {
		res_ev(r, "kernel", "%s", kernel ? kernel : "unknown");
		res_set(r, ST_FAIL, KB_BRIDGE_DXG_CUSTOM_KERNEL,
			"/dev/dxg is missing: a custom WSL kernel (%s) may lack the dxgkrnl driver",
			g.kernel ? g.kernel : kernel);
	} else {
		if (kernel)
			res_ev(r, "kernel", "%s", kernel);
		res_set(r, ST_FAIL, KB_BRIDGE_DXG_MISSING,
			"/dev/dxg is missing: this WSL kernel did not create it (no dxgkrnl, or an old "
			"one)");
	}
	(void)have_dxcore;
	wslhost_free_stores(&stores);
	free_gpu_config(&g);
	sb_release(&conf_value);
}

/* The name the kernel registered for a device number: /proc/misc lists
 * "MINOR NAME" for major 10; /proc/devices "MAJOR NAME" under "Character
 * devices:". Returns 1 with the name, 0 when the number is not listed, -1
 * when the file cannot be read. */
static int registered_name(bool misc, unsigned num, struct strbuf *name)
{
	struct strbuf t = STRBUF_INIT;
	int found = -1;
	sb_reset(name);
	if (rootfs_read(misc ? "/proc/misc" : "/proc/devices", 1 << 16, &t, NULL) == 0) {
		found = 0;
		bool chr = misc;
		for (char *line = t.buf, *next; found == 0 && line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			if (!misc && strchr(line, ':')) { /* "Character devices:", "Block devices:" */
				chr = strncmp(line, "Character", 9) == 0;
				continue;
			}
			char *end;
			unsigned long v = strtoul(line, &end, 10);
			if (!chr || end == line || v != num)
				continue;
			while (*end == ' ' || *end == '\t')
				end++;
			sb_add(name, end);
			found = 1;
		}
	}
	sb_release(&t);
	return found;
}

/*
 * Whether a character device at /dev/dxg is the dxg driver's. Current
 * dxgkrnl registers a misc device (major 10, /proc/misc names it "dxg");
 * the first one (2020) took a dynamic major of its own, which /proc/devices
 * names "dxgkrnl". Any other device that opens (mknod /dev/dxg c 1 3 makes
 * /dev/null) is not a GPU bridge: FAIL when the kernel names it otherwise,
 * WARN when its lists cannot be read to tell. Returns whether it is.
 */
static bool dxg_driver(struct result *r, const struct node *n)
{
	unsigned maj = major(n->st.st_rdev), min = minor(n->st.st_rdev);
	bool misc = maj == MISC_MAJOR;
	struct strbuf name = STRBUF_INIT;
	int rc = registered_name(misc, misc ? min : maj, &name);
	bool ok = rc == 1 && !strcmp(name.buf, misc ? "dxg" : "dxgkrnl");
	if (ok && !misc)
		res_ev(r, "note", "major %u is dxgkrnl's own (/proc/devices): an early dxgkrnl; "
				  "current ones are misc devices (major 10)", maj);
	if (!ok && !(misc && rc < 0)) {
		/* a misc minor with unreadable /proc/misc is the usual case in a
		 * sandbox: the major is already dxgkrnl's */
		res_ev(r, "registered", "%s", rc == 1 ? name.buf : rc == 0 ? "nothing" : "unknown");
		res_ev(r, "list", "%s", misc ? "/proc/misc" : "/proc/devices");
		if (rc == 1)
			res_set(r, ST_FAIL, KB_BRIDGE_DXG_NOT_DXG,
				"/dev/dxg is character device %u:%u, which the kernel registers as "
				"\"%s\" (%s), not the dxg driver", maj, min, name.buf,
				misc ? "/proc/misc" : "/proc/devices");
		else if (rc == 0)
			res_set(r, ST_FAIL, KB_BRIDGE_DXG_NOT_DXG,
				"/dev/dxg is character device %u:%u, which no driver of %s registers: "
				"not the dxg driver", maj, min, misc ? "/proc/misc" : "/proc/devices");
		else
			res_set(r, ST_WARN, KB_BRIDGE_DXG_NOT_DXG,
				"/dev/dxg is character device %u:%u, not a misc device (major 10) as "
				"dxgkrnl makes it, and /proc/devices cannot be read to tell whose it is",
				maj, min);
	} else {
		ok = true;
	}
	sb_release(&name);
	return ok;
}

static void probe_dxg(struct probe_ctx *ctx, struct result *r)
{
	const char *kind = probe_platform(ctx);
	struct stat st;
	bool present = rootfs_lstat("/dev/dxg", &st) == 0;
	if (!probe_is_wsl2(ctx) && !(!strcmp(kind, "unknown") && present)) {
		res_set(r, ST_SKIP, NULL, "skipped: %s has no /dev/dxg (it is WSL2's GPU device)",
			platform_words(kind));
		return;
	}
	res_ev(r, "path", "/dev/dxg");
	probe_step(ctx, "opening /dev/dxg");
	struct node n;
	check_node("/dev/dxg", &n);
	struct strbuf d = STRBUF_INIT;
	describe_node(&n, &d);
	switch (n.state) {
	case NODE_MISSING:
		dxg_missing(ctx, r);
		break;
	case NODE_NOT_CHAR:
		res_ev(r, "type", "%s", d.buf);
		res_set(r, ST_FAIL, KB_BRIDGE_DXG_NOT_CHARDEV,
			"/dev/dxg is a %s, not a character device", file_type(n.st.st_mode));
		break;
	case NODE_DENIED:
		res_ev(r, "type", "%s", d.buf);
		denied_evidence(r, "/dev/dxg", &n);
		res_set(r, ST_FAIL, KB_BRIDGE_DXG_DENIED, "/dev/dxg cannot be opened: %s",
			strerror(n.err));
		break;
	case NODE_BROKEN:
		res_ev(r, "type", "%s", d.buf);
		res_ev(r, "error", "%s", strerror(n.err));
		res_set(r, ST_FAIL, KB_BRIDGE_DXG_OPEN_FAILED, "/dev/dxg cannot be opened: %s",
			strerror(n.err));
		break;
	case NODE_OK: {
		res_ev(r, "type", "%s", d.buf);
		if (!n.stand_in && !dxg_driver(r, &n))
			break;
		res_ev(r, "note", "/dev/dxg exists before any GPU is found: the cuda and nvml "
				  "layers prove there is one");
		struct gpu_config g;
		read_gpu_config(&g);
		if (g.gpu_off) {
			res_ev(r, "wslconfig", "%s", g.gpu_off);
			res_set(r, ST_WARN, KB_BRIDGE_DXG_GPU_SUPPORT_OFF,
				"/dev/dxg is present, but .wslconfig turns GPU support off (%s)",
				g.gpu_off);
		} else if (n.stand_in) {
			res_set(r, ST_PASS, NULL, "/dev/dxg is present and opens read-write (a regular "
						  "file: fixture stand-in)");
		} else {
			res_set(r, ST_PASS, NULL, "/dev/dxg is a character device (%u:%u) and opens "
						  "read-write", major(n.st.st_rdev), minor(n.st.st_rdev));
		}
		free_gpu_config(&g);
		break;
	}
	}
	sb_release(&d);
}

/* Names of /dev/nvidia* entries, sorted; the caller frees. */
static char **list_nvidia_nodes(size_t *n)
{
	char **v = NULL;
	*n = 0;
	DIR *d = rootfs_opendir("/dev");
	if (!d)
		return NULL;
	struct dirent *de;
	size_t seen = 0;
	while ((de = readdir(d)) && seen++ < 65536) {
		if (strncmp(de->d_name, "nvidia", 6) != 0)
			continue;
		v = xrealloc(v, (*n + 1) * sizeof *v);
		v[(*n)++] = xasprintf("/dev/%s", de->d_name);
	}
	closedir(d);
	for (size_t i = 1; i < *n; i++)
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v;
}

static bool is_gpu_node(const char *path)
{
	const char *p = path + strlen("/dev/nvidia");
	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* The distribution's os-release ID as evidence "distro_id" (ubuntu-drivers
 * is advice only on Ubuntu). */
static void distro_id(struct result *r)
{
	struct strbuf id = STRBUF_INIT;
	if (os_release_value("ID", &id) == 0 && id.len)
		res_ev(r, "distro_id", "%s", id.buf);
	sb_release(&id);
}

/* Whether the nvidia kernel module is loaded (/proc/modules, /proc/driver/nvidia). */
static bool nvidia_module_loaded(struct result *r)
{
	struct strbuf t = STRBUF_INIT;
	bool mod = false;
	if (rootfs_read("/proc/modules", 1 << 20, &t, NULL) == 0) {
		for (const char *p = t.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, "nvidia ", 7)) {
				mod = true;
				break;
			}
		res_ev(r, "module", "%s", mod ? "nvidia is in /proc/modules"
					     : "no nvidia module in /proc/modules");
	}
	struct stat st;
	bool procdrv = rootfs_stat("/proc/driver/nvidia/version", &st) == 0;
	if (procdrv)
		res_ev(r, "module", "/proc/driver/nvidia/version exists");
	sb_release(&t);
	return mod || procdrv;
}

static void probe_nvidia_dev(struct probe_ctx *ctx, struct result *r)
{
	const char *kind = probe_platform(ctx);
	size_t n;
	char **nodes = list_nvidia_nodes(&n);
	struct strbuf d = STRBUF_INIT, names = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sb_addf(&names, "%s%s", i ? ", " : "", nodes[i]);

	if (probe_is_wsl2(ctx)) {
		if (!n) {
			res_set(r, ST_SKIP, NULL, "skipped: WSL2 has no /dev/nvidia* nodes (its GPU "
						  "device is /dev/dxg)");
		} else {
			res_ev(r, "nodes", "%s", names.buf);
			res_set(r, ST_WARN, KB_BRIDGE_NVIDIA_DEV_ON_WSL,
				"%s exist%s, but WSL2 has no /dev/nvidia* nodes: someone created them",
				names.buf, n == 1 ? "s" : "");
		}
		goto out;
	}
	if (!strcmp(kind, "unknown") && !n) {
		res_set(r, ST_SKIP, NULL, "skipped: cannot tell what this machine is, and it has no "
					  "/dev/nvidia* nodes");
		goto out;
	}

	/* Native Linux or a container: the nodes libcuda opens. */
	probe_step(ctx, "opening /dev/nvidia* nodes");
	struct strbuf missing = STRBUF_INIT;
	const char *bad_path = NULL;
	struct node bad;
	memset(&bad, 0, sizeof bad);
	size_t gpus = 0;
	bool uvm_missing = false;
	const char *fixed[] = { "/dev/nvidiactl", "/dev/nvidia-uvm" };
	for (size_t i = 0; i < 2; i++) {
		struct node nd;
		check_node(fixed[i], &nd);
		describe_node(&nd, &d);
		res_ev(r, "device", "%s: %s", fixed[i], d.buf);
		if (nd.state == NODE_MISSING) {
			if (i == 1)
				uvm_missing = true;
			else
				sb_addf(&missing, "%s%s", missing.len ? ", " : "", fixed[i]);
		} else if (nd.state != NODE_OK && !bad_path) {
			bad_path = fixed[i];
			bad = nd;
		} else if (nd.state == NODE_OK && !nd.stand_in && i == 0 &&
			   major(nd.st.st_rdev) != NVIDIA_MAJOR) {
			res_ev(r, "note", "/dev/nvidiactl has major %u, not NVIDIA's 195",
			       major(nd.st.st_rdev));
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!is_gpu_node(nodes[i]))
			continue;
		struct node nd;
		check_node(nodes[i], &nd);
		describe_node(&nd, &d);
		res_ev(r, "device", "%s: %s", nodes[i], d.buf);
		gpus++;
		if (nd.state != NODE_OK && !bad_path) {
			bad_path = nodes[i];
			bad = nd;
		}
	}
	if (!gpus)
		sb_addf(&missing, "%s/dev/nvidia0", missing.len ? ", " : "");

	if (missing.len) {
		res_ev(r, "missing", "%s", missing.buf);
		bool loaded = nvidia_module_loaded(r);
		probe_image_ev(ctx, r);
		if (!strcmp(kind, "container"))
			res_set(r, ST_FAIL, KB_BRIDGE_NVIDIA_DEV_CONTAINER,
				"%s missing: this container was started without the GPU "
				"(docker run --gpus all)", missing.buf);
		else if (!loaded) {
			distro_id(r);
			res_set(r, ST_FAIL, KB_BRIDGE_NVIDIA_DEV_NO_DRIVER,
				"%s missing: no NVIDIA kernel module is loaded", missing.buf);
		} else
			res_set(r, ST_FAIL, KB_BRIDGE_NVIDIA_DEV_MISSING,
				"%s missing although the nvidia module is loaded", missing.buf);
	} else if (bad_path) {
		res_ev(r, "path", "%s", bad_path);
		if (bad.state == NODE_NOT_CHAR) {
			res_set(r, ST_FAIL, KB_BRIDGE_NVIDIA_DEV_NOT_CHARDEV,
				"%s is a %s, not a character device", bad_path, file_type(bad.st.st_mode));
		} else if (bad.state == NODE_DENIED) {
			denied_evidence(r, bad_path, &bad);
			res_set(r, ST_FAIL, KB_BRIDGE_NVIDIA_DEV_DENIED, "%s cannot be opened: %s",
				bad_path, strerror(bad.err));
		} else {
			res_ev(r, "error", "%s", strerror(bad.err));
			res_set(r, ST_FAIL, KB_BRIDGE_NVIDIA_DEV_OPEN_FAILED, "%s cannot be opened: %s",
				bad_path, strerror(bad.err));
		}
	} else if (uvm_missing) {
		/* libcuda runs the setuid nvidia-modprobe to create it on native
		 * Linux; inside a container nothing can. */
		bool container = !strcmp(kind, "container");
		res_ev(r, "missing", "/dev/nvidia-uvm");
		probe_image_ev(ctx, r);
		res_set(r, container ? ST_FAIL : ST_WARN, KB_BRIDGE_NVIDIA_DEV_NO_UVM,
			"/dev/nvidia-uvm is missing: CUDA needs it (nvidia_uvm module)");
	} else {
		res_set(r, ST_PASS, NULL, "/dev/nvidiactl, %zu GPU node%s and /dev/nvidia-uvm open "
					  "read-write", gpus, gpus == 1 ? "" : "s");
	}
	sb_release(&missing);
out:
	for (size_t i = 0; i < n; i++)
		free(nodes[i]);
	free(nodes);
	sb_release(&d);
	sb_release(&names);
}

const struct check_def bridge_checks[] = {
	{ "bridge.dxg", "bridge", "GPU paravirtualisation device", "WSL2: /dev/dxg exists, is a character device and can be opened; if not, why", { "platform.kind" }, probe_dxg, CHECK_FILES },
	{ "bridge.nvidia_dev", "bridge", "NVIDIA device nodes", "native Linux: /dev/nvidiactl, /dev/nvidia<N>, /dev/nvidia-uvm open; WSL2: none should exist", { "platform.kind" }, probe_nvidia_dev, CHECK_FILES },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
