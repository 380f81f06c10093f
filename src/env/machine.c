/*
 * machine.c - describe the machine a result was measured on.
 *
 * CPU identity and usable ISA from the architecture (src/arch: cpuid and
 * xgetbv on x86-64, MIDR_EL1 and the hardware capabilities on AArch64),
 * and whether qemu-user emulates this CPU; caches from
 * sysfs (/sys/devices/system/cpu/cpu0/cache), else from glibc's sysconf
 * (which reads cpuid), labelled so; kernel from uname; the
 * seccomp state and the CPU vulnerability mitigations, which dominate
 * system-call cost, from /proc/self/status and sysfs.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "settle.h"
#include "settle_bits.h"
#include "settle_byteorder.h"
#include "cpu/cpu.h"
#include "env/env.h"
#include "prim/bswap_kernels.h"
#include "prim/readlimit.h"
#include "util/util.h"

/*
 * qemu-user runs a program of another architecture as a process of its
 * own: the kernel's name for the process (the Name line of
 * /proc/self/status, which qemu does not rewrite) is then "qemu-<arch>"
 * while /proc/self/exe, which qemu does rewrite, names the program. Under
 * emulation no timing describes a real CPU, and /proc/cpuinfo is the
 * host's.
 */
static void detect_emulator(struct settle_machine *m)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256], name[64] = "", exe[512];
	const char *base;
	ssize_t k;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Name: %63s", name) == 1)
			break;
	fclose(f);
	k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (strncmp(name, "qemu-", 5) != 0 || k <= 0)
		return;
	exe[k] = '\0';
	base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	if (strncmp(base, name, 15) == 0) /* qemu itself, run natively */
		return;
	snprintf(m->emulator, sizeof(m->emulator), "qemu-user (%.18s)", name);
}

static void describe_cpu(struct settle_machine *m)
{
	uint64_t feat = settle_cpu_features();

	settle_arch_describe_cpu(m);
	settle_trim(m->model_name);
	m->isa[0] = '\0';
	for (int f = 0; f < SETTLE_CPU_NFEATURES; f++) {
		const char *name = settle_cpu_feature_name(f);

		if (!((feat >> f) & 1) || !strcmp(name, "hypervisor"))
			continue;
		if (m->isa[0])
			strncat(m->isa, " ", sizeof(m->isa) - strlen(m->isa) - 1);
		strncat(m->isa, name, sizeof(m->isa) - strlen(m->isa) - 1);
	}
}

/* Read the first line of a file into buf; returns 0 or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	settle_trim(buf);
	return 0;
}

static uint64_t parse_cache_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);

	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v;
}

/* Without sysfs cache entries (some hypervisors' guests): the sizes
 * glibc's sysconf gives, from cpuid (what a hypervisor chose to report),
 * marked as such (env.h). */
void settle_caches_from_sysconf(struct settle_machine *m)
{
	static const struct {
		int name, level;
		const char *type;
	} q[] = {
		{ _SC_LEVEL1_DCACHE_SIZE, 1, "Data" },
		{ _SC_LEVEL1_ICACHE_SIZE, 1, "Instruction" },
		{ _SC_LEVEL2_CACHE_SIZE, 2, "Unified" },
		{ _SC_LEVEL3_CACHE_SIZE, 3, "Unified" },
	};

	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		long b = sysconf(q[i].name);
		struct settle_cache *c = &m->caches[m->ncaches];

		if (b <= 0 || m->ncaches == SETTLE_MAX_CACHES)
			continue;
		c->level = q[i].level;
		snprintf(c->type, sizeof(c->type), "%s", q[i].type);
		c->size_bytes = (uint64_t)b;
		m->ncaches++;
	}
	if (m->ncaches)
		snprintf(m->caches_source, sizeof(m->caches_source), "sysconf");
}

static void describe_caches(struct settle_machine *m)
{
	const char *base = "/sys/devices/system/cpu/cpu0/cache";
	char path[256], buf[64];

	for (int i = 0; i < 16 && m->ncaches < SETTLE_MAX_CACHES; i++) {
		struct settle_cache *c = &m->caches[m->ncaches];

		snprintf(path, sizeof(path), "%s/index%d/level", base, i);
		if (read_line(path, buf, sizeof(buf)) < 0)
			break;
		c->level = atoi(buf);
		snprintf(path, sizeof(path), "%s/index%d/type", base, i);
		if (read_line(path, c->type, sizeof(c->type)) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/index%d/size", base, i);
		if (read_line(path, buf, sizeof(buf)) < 0)
			continue;
		c->size_bytes = parse_cache_size(buf);
		m->ncaches++;
	}
	if (!m->ncaches)
		settle_caches_from_sysconf(m);
}

static void describe_seccomp(struct settle_machine *m)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	snprintf(m->seccomp, sizeof(m->seccomp), "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char num[16];

		if (sscanf(line, "Seccomp: %15s", num) != 1)
			continue;
		/* 0 disabled, 1 strict, 2 filter (proc(5)). */
		snprintf(m->seccomp, sizeof(m->seccomp), "%s",
			 strcmp(num, "0") == 0 ? "disabled" :
			 strcmp(num, "1") == 0 ? "strict" :
			 strcmp(num, "2") == 0 ? "filter" : num);
		break;
	}
	fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void describe_mitigations(struct settle_machine *m)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	char *names[64], path[512], val[256];
	size_t n = 0, used = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	m->mitigations[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) && n < 64)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (read_line(path, val, sizeof(val)) == 0 &&
		    used < sizeof(m->mitigations)) {
			int k = snprintf(m->mitigations + used,
					 sizeof(m->mitigations) - used,
					 "%s%s: %s", used ? "; " : "",
					 names[i], val);
			if (k > 0)
				used += (size_t)k;
		}
		free(names[i]);
	}
}

static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

/*
 * Which loop the byte-swap implementation impl copies which sizes with
 * (the copy rule and the non-temporal threshold, src/prim/bswap_kernels.h;
 * env.h), e.g. "copies: 512-bit below 27 KiB, 256-bit to 8 MiB, 128-bit
 * beyond; non-temporal stores above 8 MiB, threshold set by: cap (...)",
 * with " (four 4 KiB stretches at once)" after the threshold where the
 * rule interleaves the non-temporal copy (Intel), and for the AVX-512
 * kernel "; in place: 256-bit from 12 KiB to 32 KiB" where the rule hands
 * swaps in place to the AVX2 loop (AMD family 19h). The in-place hand-over
 * at SETTLE_BSWAP_NARROW_INPLACE_BYTES is not described. Kernels without
 * such ranges: "".
 */
void settle_bswap_sizes_describe(const char *impl, char *buf, size_t len)
{
	const struct settle_bswap_copy_rule *r = settle_bswap_copy_rule();
	size_t nt = settle_bswap_nt_bytes(), from = r->narrow_from;
	char z[32], n[48], t[32], wide[160] = "";

	snprintf(buf, len, "%s", "");
	settle_format_size(nt, t, sizeof(t));
	if (from == nt + 1)
		snprintf(n, sizeof(n), "to %s", t);
	else
		snprintf(n, sizeof(n), "below %s",
			 settle_format_size(from, z, sizeof(z)));
	/* from narrow_from on the 128-bit loop, whatever zmm_end says */
	settle_format_size(r->zmm_end < from ? r->zmm_end : from, z, sizeof(z));
	if (!strcmp(impl, "avx512") && r->zmm_end < from)
		snprintf(wide, sizeof(wide), "512-bit below %s, 256-bit %s, "
			 "128-bit beyond", z, n);
	else if (!strcmp(impl, "avx512"))
		snprintf(wide, sizeof(wide), "512-bit below %s, 128-bit "
			 "beyond", z);
	else if (!strcmp(impl, "avx2"))
		snprintf(wide, sizeof(wide), "256-bit %s, 128-bit beyond", n);
	else if (!strcmp(impl, "ssse3") || !strcmp(impl, "neon"))
		snprintf(wide, sizeof(wide), "128-bit");
	else
		return;
	if (nt < SETTLE_BSWAP_NT_MIN_BYTES) /* the kernels' floor */
		snprintf(n, sizeof(n), "from %s", settle_format_size(
			 SETTLE_BSWAP_NT_MIN_BYTES, z, sizeof(z)));
	else
		snprintf(n, sizeof(n), "above %s", t);
	snprintf(buf, len, "copies: %s; non-temporal stores %s%s, threshold "
		 "set by: %s", wide, n, r->nt_interleave ?
		 " (four 4 KiB stretches at once)" : "",
		 settle_bswap_nt_source());
	if (strcmp(impl, "avx512") ||
	    r->ymm_inplace_to < SETTLE_BSWAP_NARROW_COPY_MIN)
		return;
	snprintf(wide, sizeof(wide), "; in place: 256-bit from %s ",
		 settle_format_size(SETTLE_BSWAP_NARROW_COPY_MIN, z,
				    sizeof(z)));
	snprintf(buf + strlen(buf), len - strlen(buf), "%sto %s", wide,
		 settle_format_size(r->ymm_inplace_to, z, sizeof(z)));
}

/* Appends to buf (len bytes) "W loads below END" for the first of
 * several stretches, ", W to END" for the next, ", W beyond" for the
 * last, and "W loads at every size" for one alone; end SIZE_MAX: the
 * last. */
static void stretch(char *buf, size_t len, unsigned bits, size_t end)
{
	size_t used = strlen(buf);
	char e[32];

	if (end != SIZE_MAX)
		settle_format_size(end, e, sizeof(e));
	if (used >= len)
		return;
	if (!used && end == SIZE_MAX)
		snprintf(buf, len, "%u-bit loads at every size", bits);
	else if (!used)
		snprintf(buf, len, "%u-bit loads below %s", bits, e);
	else if (end == SIZE_MAX)
		snprintf(buf + used, len - used, ", %u-bit beyond", bits);
	else
		snprintf(buf + used, len - used, ", %u-bit to %s", bits, e);
}

static void read_limit_stretches(int impl, char *buf, size_t len)
{
	buf[0] = 0;
	switch (impl) {
	case SETTLE_READ_LIMIT_GENERIC:
		snprintf(buf, len, "64-bit words at every size");
		return;
	case SETTLE_READ_LIMIT_SSE2:
	case SETTLE_READ_LIMIT_NEON:
		stretch(buf, len, 128, SIZE_MAX);
		return;
	case SETTLE_READ_LIMIT_AVX2:
	case SETTLE_READ_LIMIT_AVX512:
		break;
	default:
		return;
	}
#if SETTLE_ARCH_X86_64
	const struct settle_read_limit_widths *w = settle_read_limit_widths();

	if (impl == SETTLE_READ_LIMIT_AVX512) {
		char e[32];

		/* the same sentence whichever width the tune chose, so that
		 * the processes of a run describe the machine alike */
		if (w->tune_below)
			snprintf(buf, len, "256-bit or 512-bit loads below %s "
				 "(whichever read 16 KiB faster when the "
				 "process started)", settle_format_size(
				 w->tune_below, e, sizeof(e)));
		else if (w->zmm_min)
			stretch(buf, len, 256, w->zmm_min);
		stretch(buf, len, 512, w->zmm_end);
		if (w->zmm_end == SIZE_MAX)
			return;
	}
	if (w->stream_min > (impl == SETTLE_READ_LIMIT_AVX512 ? w->zmm_end : 0))
		stretch(buf, len, 256, w->stream_min);
	if (w->stream_min != SIZE_MAX)
		stretch(buf, len, 128, SIZE_MAX);
#endif
}

void settle_read_limit_describe(int impl, char *buf, size_t len)
{
	char s[256];

	read_limit_stretches(impl, s, sizeof(s));
	snprintf(buf, len, s[0] ? "%s; %s" : "%s",
		 settle_read_limit_impl_name(impl), s);
}

/* This process's share of read_limit_timed: 1 of 1 when its read limit
 * timed its loads (settle_read_limit_timing()), 256-bit or not. */
static void read_limit_timed(struct settle_machine *m)
{
	const struct settle_read_limit_timing *t = settle_read_limit_timing();

	if (!t)
		return;
	m->read_limit_timed = 1;
	m->read_limit_timed_256 = t->bits == 256;
}

void settle_machine_describe(struct settle_machine *m)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	detect_emulator(m);
	describe_cpu(m);
	describe_caches(m);
	m->logical_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%s %s", u.release,
			 u.version);
	describe_seccomp(m);
	describe_mitigations(m);
	m->mem_available = mem_available();
	snprintf(m->popcount_impl, sizeof(m->popcount_impl), "%s",
		 settle_popcount_impl_name(settle_popcount_active()));
	snprintf(m->bswap_impl, sizeof(m->bswap_impl), "%s",
		 settle_bswap_impl_name(settle_bswap_active()));
	settle_bswap_sizes_describe(m->bswap_impl, m->bswap_sizes,
				    sizeof(m->bswap_sizes));
	settle_read_limit_describe(settle_read_limit_active(), m->read_limit,
				   sizeof(m->read_limit));
	read_limit_timed(m);
}
