// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The board's shim, its uevent part (linked into libemuboard-gpiod.so with
 * gpiod-preload.c): every process on the board that listens to uevents
 * gets them, however many listen at once.
 *
 * umockdev's preload turns a netlink uevent socket into a unix datagram
 * socket at socket() and, at bind(), names it $UMOCKDEV_DIR/event<FD>
 * after unlinking whatever had that name.  Two processes on one board
 * whose sockets have the same descriptor number (two touchfw runs started
 * alike, as on a board with two controllers) then share one name: the
 * second bind unlinks the first one's socket, which from then on hears
 * nothing, or, when both unlink before either binds, the second bind
 * fails (EADDRINUSE) and libudev's monitor can not be enabled.  A kernel
 * has no such limit: every netlink listener gets every event.
 *
 * So a bind of a netlink address on a socket umockdev made a unix one
 * (the only way an AF_UNIX socket is bound to an AF_NETLINK address) is
 * done here, before umockdev's, under a name of this process's own:
 * event<FD>-<PID>.  The emulated kernel sends each uevent to every
 * $UMOCKDEV_DIR/event[0-9]* (tests/emul/host/uevent.c), so it reaches
 * this name too; umockdev's recvmsg() still gives the sender as the
 * kernel, as it keys on the descriptor, not the name.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	static int (*next_bind)(int, const struct sockaddr *, socklen_t);
	const char *dir = getenv("UMOCKDEV_DIR");
	int domain = 0;
	socklen_t dlen = sizeof(domain);

	if (dir && addr && len >= sizeof(sa_family_t) && addr->sa_family == AF_NETLINK &&
	    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) == 0 && domain == AF_UNIX) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int n = snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/event%d-%ld", dir, fd,
				 (long)getpid());

		if (n < 0 || (size_t)n >= sizeof(sa.sun_path)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		unlink(sa.sun_path); /* a socket this process closed */
		/* the kernel's bind: umockdev's would name it event<FD> again */
		return (int)syscall(SYS_bind, fd, (struct sockaddr *)&sa,
				    (socklen_t)sizeof(sa));
	}
	if (!next_bind)
		next_bind = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT,
										    "bind");
	if (!next_bind) {
		errno = ENOSYS;
		return -1;
	}
	return next_bind(fd, addr, len);
}
