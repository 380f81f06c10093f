/*
 * describe.c - generic: the CPU as /proc/cpuinfo names it ("vendor_id",
 * "model name"; proc(5)), else as uname(2) does ("s390x"). Under
 * emulation /proc/cpuinfo is the host's, so only uname is used.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cpu/cpu.h"

/* The value of a "key : value" line of /proc/cpuinfo into buf. */
static void cpuinfo(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t k = strlen(key);
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, k) != 0 || !(v = strchr(line, ':')))
			continue;
		if (line[k] != ' ' && line[k] != '\t' && line[k] != ':')
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
}

void settle_arch_describe_cpu(struct settle_machine *m)
{
	struct utsname u;

	if (!m->emulator[0]) {
		cpuinfo("vendor_id", m->vendor, sizeof(m->vendor));
		cpuinfo("model name", m->model_name, sizeof(m->model_name));
	}
	if (!m->vendor[0])
		snprintf(m->vendor, sizeof(m->vendor), "%s", SETTLE_ARCH_NAME);
	if (!m->model_name[0] && uname(&u) == 0)
		snprintf(m->model_name, sizeof(m->model_name), "%.*s",
			 (int)sizeof(m->model_name) - 1, u.machine);
}
