/*
 * env_value.h - an environment variable's value, quoted in a one-line
 * message (private to settle).
 */
#ifndef SETTLE_ENV_VALUE_H
#define SETTLE_ENV_VALUE_H

#include <stddef.h>

/*
 * Copy value into buf (len bytes, len >= 4) for a message: characters
 * outside printable ASCII become '?', so that the message stays one line,
 * and a value longer than buf ends in "...".
 */
static inline void settle_env_value(char *buf, size_t len, const char *value)
{
	size_t i;

	for (i = 0; value[i] && i + 1 < len; i++)
		buf[i] = value[i] >= 0x20 && value[i] < 0x7f ? value[i] : '?';
	buf[i] = '\0';
	if (value[i])
		buf[len - 4] = buf[len - 3] = buf[len - 2] = '.';
}

#endif
