/* work() runs inlined in main for three quarters of its calls, out of
 * line through a function pointer for the rest (tests/data/README-perf.md) */
static volatile unsigned long sink;

static unsigned long work(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

unsigned long (*volatile call)(unsigned long) = work;

int main(int argc, char **argv)
{
	(void)argv;
	for (int i = 0; i < 20; i++) {
		sink = work(3000000 + (unsigned long)argc);
		sink = call(1000000);
	}
	return 0;
}
