/* build.c - how settle itself was compiled (flags come from the Makefile). */
#include "env/env.h"

#ifndef SETTLE_BUILD_FLAGS
#define SETTLE_BUILD_FLAGS "unknown"
#endif

const char *settle_build_compiler(void)
{
#if defined(__clang__)
	return "clang " __clang_version__;
#elif defined(__GNUC__)
	return "gcc " __VERSION__;
#else
	return "unknown";
#endif
}

const char *settle_build_flags(void)
{
	return SETTLE_BUILD_FLAGS;
}

#ifndef SETTLE_NOVEC_FLAGS
#define SETTLE_NOVEC_FLAGS "unknown"
#endif

const char *settle_build_novec_flags(void)
{
	return SETTLE_NOVEC_FLAGS;
}
