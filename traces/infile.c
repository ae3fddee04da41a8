// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/infile.c - opening an input file that must be a regular file (see infile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "traces/infile.h"

const char *cs_file_kind(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO (named pipe)";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "a special file";
}

int cs_open_regular(const char *path, const char **found)
{
	struct stat st;
	int fd, flags;

	*found = NULL;
	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISREG(st.st_mode))
		goto special;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = errno;

		close(fd);
		if (S_ISREG(st.st_mode)) {   /* fstat() failed */
			errno = e;
			return -1;
		}
		goto special;
	}
	/* reads of a regular file never wait on O_NONBLOCK, but whoever reads fd should
	 * get the descriptor open() gives without it */
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	return fd;
special:
	*found = cs_file_kind(st.st_mode);
	errno = 0;
	return -1;
}

char *cs_read_capped(int fd, gsize cap, gsize *len, int *e)
{
	GString *buf = g_string_new(NULL);
	char chunk[65536];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) > 0 && buf->len + (size_t)n <= cap)
		g_string_append_len(buf, chunk, n);
	*e = n < 0 ? errno : 0;
	close(fd);
	if (n == 0) {
		*len = buf->len;
		return g_string_free(buf, FALSE);
	}
	g_string_free(buf, TRUE);
	return NULL;
}
