// SPDX-License-Identifier: GPL-2.0
/* test_main.c - runs every cmocka group; exit status = failed tests. */
#include "fixture.h"

int main(void)
{
	int failed = 0;

	failed += run_lib_tests();
	failed += run_verb_tests();
	failed += run_syscall_tests();
	failed += run_offload_tests();
	failed += run_plan_tests();
	/* cmocka's own summary is the last output */
	return failed ? 1 : 0;
}
