/**
 * What a wait channel says about a sleeping process, on Linux (kernel function names, as
 * /proc/PID/wchan and procps `ps` show them) and the BSDs (the sleep's message, `ps -o wchan`).
 * macOS shows none: its kernel zeroes the field `ps` reads (see README.md).
 */
export type WchanMeaning = "terminal" | "poll" | "other";

const TERMINAL: Record<string, string> = {
  // Linux before 4.x slept in the tty's own read; since then n_tty_read sleeps in wait_woken,
  // which a read of a socket (sk_wait_data) shares: on Linux ps cannot tell those two apart.
  n_tty_read: "Linux: the terminal's read",
  wait_woken: "Linux: a terminal read (or a socket's)",
  // FreeBSD and OpenBSD sleep on the message "ttyin" in the tty's read, NetBSD on "ttyraw".
  ttyin: "BSD: the terminal's read",
  ttyraw: "NetBSD: the terminal's read",
};

/** select, poll, epoll, kqueue: which descriptors are watched is not visible. */
const POLL = /poll|select|kqread|kevent/;

export function wchanMeaning(wchan: string): { meaning: WchanMeaning; note: string } {
  if (wchan in TERMINAL) return { meaning: "terminal", note: TERMINAL[wchan] };
  if (POLL.test(wchan)) return { meaning: "poll", note: "waits on several descriptors" };
  return { meaning: "other", note: "sleeps on something else" };
}
