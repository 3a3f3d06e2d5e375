/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpulist_ktable.h - CPU lists with the result of the kernel's
 * bitmap_parselist() (lib/bitmap.c) of linux-source-6.1 6.1.192-3, as
 * printed by "build/test_kparse --table": input, mask size (nbits), the
 * kernel's return value, the resulting set. test_lib.c holds
 * cpulist_parse() to it; test_kparse.c re-checks every row against the
 * kernel's code at each build.
 */
#ifndef NOCB_CPULIST_KTABLE_H
#define NOCB_CPULIST_KTABLE_H

#include <errno.h>
#include <stddef.h>

struct ktable_row {
	const char *in;
	size_t len;		/* may include a NUL, which ends the list */
	int nbits;
	int rc;			/* 0, -EINVAL, -ERANGE, -EOVERFLOW */
	const char *set;	/* as cpulist_format() */
};

#define T(s, nbits, rc, set) { s, sizeof(s) - 1, nbits, rc, set }

static const struct ktable_row ktable[] = {
	T("", 4, 0, ""),
	T("\n", 4, 0, ""),
	T(" ", 4, 0, ""),
	T(",", 4, 0, ""),
	T(",,", 4, 0, ""),
	T("0", 4, 0, "0"),
	T("0,", 4, 0, "0"),
	T(",0", 4, 0, "0"),
	T("1,,2", 4, 0, "1-2"),
	T(" 1 , 2 ", 4, 0, "1-2"),
	T("0-3", 4, 0, "0-3"),
	T("0-3\n", 4, 0, "0-3"),
	T("3-3", 4, 0, "3"),
	T("3-1", 4, -EINVAL, ""),
	T("1-", 4, -EINVAL, ""),
	T("-1", 4, -EINVAL, ""),
	T("1-2-3", 4, -EINVAL, ""),
	T("1-2,x", 4, -EINVAL, ""),
	T("1-3:2", 4, -EINVAL, ""),
	T("8-15:2", 16, -EINVAL, ""),
	T("8-15:1/2", 16, 0, "8,10,12,14"),
	T("0-15:2/4", 16, 0, "0-1,4-5,8-9,12-13"),
	T("0-15:0/4", 16, 0, ""),
	T("0-15:4/4", 16, 0, "0-15"),
	T("0-15:5/4", 16, -EINVAL, ""),
	T("0-15:1/0", 16, -EINVAL, ""),
	T("0-15:0/0", 16, -EINVAL, ""),
	T("0-15:1/1", 16, 0, "0-15"),
	T("0-15:1/16", 16, 0, "0"),
	T("0-15:1/99", 16, 0, "0"),
	T("0-15:", 16, -EINVAL, ""),
	T("0-15:1", 16, -EINVAL, ""),
	T("0-15:1/", 16, -EINVAL, ""),
	T("0-15:/2", 16, -EINVAL, ""),
	T("0-15:1/2/3", 16, -EINVAL, ""),
	T("0-15:1/2:1/2", 16, -EINVAL, ""),
	T("0-15:1/2x", 16, -EINVAL, ""),
	T("0-15:1/2N", 16, 0, "0,2,4,6,8,10,12,14-15"),
	T("0-15:1/2all", 16, 0, "0-15"),
	T("0-15:1/2\n9", 16, 0, "0,2,4,6,8-10,12,14"),
	T("0-7\n9", 16, 0, "0-7"),
	T("0-7 \n9", 16, 0, "0-7,9"),
	T("0-7,\n9", 16, 0, "0-7,9"),
	T("1:1/2", 16, -EINVAL, ""),
	T("all", 4, 0, "0-3"),
	T("ALL", 4, 0, "0-3"),
	T("All", 4, 0, "0-3"),
	T("all,", 4, 0, "0-3"),
	T("all:1/2", 4, 0, "0,2"),
	T("all:2", 4, -EINVAL, ""),
	T("all-3", 4, -EINVAL, ""),
	T("allx", 4, -EINVAL, ""),
	T("al", 4, -EINVAL, ""),
	T("N", 4, 0, "3"),
	T("n", 4, -EINVAL, ""),
	T("1-N", 4, 0, "1-3"),
	T("N-N", 4, 0, "3"),
	T("N-1", 4, -EINVAL, ""),
	T("0-N:1/2", 16, 0, "0,2,4,6,8,10,12,14"),
	T("N5", 4, -EINVAL, ""),
	T("NN", 4, -EINVAL, ""),
	T("N-", 4, -EINVAL, ""),
	T("4", 4, -ERANGE, ""),
	T("3", 4, 0, "3"),
	T("99", 4, -ERANGE, ""),
	T("4294967295", 4, -EINVAL, ""),
	T("4294967296", 4, -EOVERFLOW, ""),
	T("0-4294967295", 4, -EINVAL, ""),
	T("0-4294967295:1/2", 4, -ERANGE, ""),
	T("99999999999999999999", 4, -EOVERFLOW, ""),
	T("000000000000000000000000000003", 4, 0, "3"),
	T("1 2", 4, 0, "1-2"),
	T("1\t2", 4, 0, "1-2"),
	T("1\n2", 4, 0, "1"),
	T("1,\n2", 4, 0, "1-2"),
	T("\n1", 4, 0, "1"),
	T("1\v2", 4, 0, "1-2"),
	T("1\f2", 4, 0, "1-2"),
	T("1\r2", 4, 0, "1-2"),
	T("1\xa0""2", 4, 0, "1-2"),
	T("1\xff", 4, -EINVAL, ""),
	T("\xff", 4, -EINVAL, ""),
	T("1\x00,2", 4, 0, "1"),
	T("+1", 4, -EINVAL, ""),
	T("0x1", 4, -EINVAL, ""),
	T("1a", 4, -EINVAL, ""),
	T("1.", 4, -EINVAL, ""),
	T("0-1,3", 4, 0, "0-1,3"),
	T("2-3:1/4294967294", 4, 0, "0,2"),
	T("1-3:1/4294967295", 4, 0, "0-1"),
	T("0-3:4294967295/4294967295", 4, 0, "0-3"),
	T("0-4095", 4096, 0, "0-4095"),
	T("4095", 4096, 0, "4095"),
	T("4096", 4096, -ERANGE, ""),
	T("4080-N:1/2", 4096, 0, "4080,4082,4084,4086,4088,4090,4092,4094"),
	T("4080-4095:2/3", 4096, 0, "4080-4081,4083-4084,4086-4087,4089-4090,4092-4093,4095"),
	T("all:1/1024", 4096, 0, "0,1024,2048,3072"),
	T("0-8191", 8192, 0, "0-8191"),
	T("8191", 8192, 0, "8191"),
	T("8192", 8192, -ERANGE, ""),
	T("N", 8192, 0, "8191"),
	T("0-N:3/1000", 8192, 0, "0-2,1000-1002,2000-2002,3000-3002,4000-4002,5000-5002,6000-6002,7000-7002,8000-8002"),
};

#undef T

#define N_KTABLE (sizeof(ktable) / sizeof(ktable[0]))

#endif
