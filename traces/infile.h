/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/infile.h - opening an input file that must be a regular file.
 *
 * A scenario, a sweep file, a trace or a file found in a checked directory is read to
 * its end: a FIFO would block the reader until some writer comes (forever, in CI), and
 * a device or a socket never ends or ends anywhere. So every such input is opened
 * here: refused without blocking when it is not a regular file (stat() first, so a
 * device is not even opened; then the open is non-blocking and fstat() checks the
 * file actually opened, which a rename in between cannot swap).
 */
#ifndef CS_TRACES_INFILE_H
#define CS_TRACES_INFILE_H

#include <glib.h>
#include <sys/types.h>

/* A read-only descriptor of path (blocking, close-on-exec), or -1: with errno set when
 * it cannot be opened, or with errno 0 and *found naming what path is ("a FIFO", "a
 * character device", ..., "a directory") when it is no regular file. */
int cs_open_regular(const char *path, const char **found);
/* What a file of mode m is, for messages: "a regular file", "a directory", "a FIFO
 * (named pipe)", "a character device", "a block device", "a socket". */
const char *cs_file_kind(mode_t m);
/* Read fd to its end, at most cap bytes (a file may grow after fstat()), and close it:
 * the text (NUL-terminated, *len bytes), or NULL with *e the errno of a failed read, or
 * 0 when the file holds more than cap bytes. */
char *cs_read_capped(int fd, gsize cap, gsize *len, int *e);

#endif
