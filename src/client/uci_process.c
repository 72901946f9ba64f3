/* Engine processes for the match runner and the bot: fork/exec, pipes, lines with deadlines,
 * the uci handshake. */
#include "uci_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../util/clock.h"
#include "../util/error.h"
#include "../util/parse.h"

/* Milliseconds from now until deadline, for poll(), rounded up and at least 0. */
static int ms_until(double deadline)
{
    double left = deadline - clock_seconds();
    if (left <= 0)
        return 0;
    return left > 1e6 ? 1000000000 : (int)(left * 1000.0) + 1;
}

bool uciproc_start(UciProc *p, const char *cmd, char *err, size_t errlen)
{
    int to[2], from[2];
    memset(p, 0, sizeof *p);
    p->to_fd = p->from_fd = -1;
    /* Close-on-exec everywhere, so that no other engine inherits these pipes (an inherited
     * write end would hide this engine's end of file). */
    if (pipe2(to, O_CLOEXEC) != 0)
        return error_set(err, errlen, "pipe: %s", strerror(errno));
    if (pipe2(from, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close(to[0]), close(to[1]);
        return false;
    }
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        if (devnull >= 0)
            close(devnull);
        return false;
    }
    if (pid == 0) {
        /* The child: only async-signal-safe calls until exec. */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &sa, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        setpgid(0, 0);
        if (dup2(to[0], 0) < 0 || dup2(from[1], 1) < 0)
            _exit(127);
        if (devnull >= 0)
            dup2(devnull, 2);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also done by the child; whichever runs first */
    close(to[0]);
    close(from[1]);
    if (devnull >= 0)
        close(devnull);
    fcntl(to[1], F_SETFL, fcntl(to[1], F_GETFL) | O_NONBLOCK);
    p->pid = pid;
    p->to_fd = to[1];
    p->from_fd = from[0];
    return true;
}

bool uciproc_send(UciProc *p, const char *line)
{
    if (p->pid == 0 || p->to_fd < 0)
        return false;
    size_t n = strlen(line);
    char stack[1024];
    char *text = stack;
    char *heap = NULL;
    if (n + 1 > sizeof stack) {
        heap = malloc(n + 1);
        if (!heap)
            return false;
        text = heap;
    }
    memcpy(text, line, n);
    text[n++] = '\n';
    double deadline = clock_seconds() + 10.0; /* an engine that reads nothing for 10 s is hung */
    size_t done = 0;
    bool ok = true;
    while (done < n) {
        ssize_t w = write(p->to_fd, text + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pf = {p->to_fd, POLLOUT, 0};
            int r = poll(&pf, 1, ms_until(deadline));
            if (r > 0 || (r < 0 && errno == EINTR))
                continue;
        }
        ok = false; /* EPIPE (the engine is gone), an error, or no room in time */
        break;
    }
    free(heap);
    return ok;
}

LineStatus uciproc_read_line(UciProc *p, char *line, size_t len, double deadline)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl || p->len == sizeof p->buf) {
            /* A whole line, or a buffer full of text with no newline: return it as a line. */
            size_t n = nl ? (size_t)(nl - p->buf) : p->len;
            size_t used = nl ? n + 1 : n;
            if (n > 0 && p->buf[n - 1] == '\r')
                n--;
            size_t copy = n < len - 1 ? n : len - 1;
            memcpy(line, p->buf, copy);
            line[copy] = 0;
            memmove(p->buf, p->buf + used, p->len - used);
            p->len -= used;
            return LINE_OK;
        }
        if (p->pid == 0 || p->from_fd < 0)
            return LINE_EOF;
        struct pollfd pf = {p->from_fd, POLLIN, 0};
        int r = poll(&pf, 1, ms_until(deadline));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return LINE_TIMEOUT;
        if (r < 0)
            return LINE_EOF;
        ssize_t got = read(p->from_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (p->len > 0) { /* a last line without its newline */
                p->buf[p->len++] = '\n';
                continue;
            }
            return LINE_EOF;
        }
        p->len += (size_t)got;
    }
}

void uciproc_stop(UciProc *p, double grace)
{
    if (p->pid == 0)
        return;
    uciproc_send(p, "quit");
    close(p->to_fd);
    p->to_fd = -1;
    double deadline = clock_seconds() + grace;
    int status;
    pid_t r;
    while ((r = waitpid(p->pid, &status, WNOHANG)) == 0 && clock_seconds() < deadline) {
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    /* The engine, and anything the shell started beside it, in its process group. */
    kill(-p->pid, SIGKILL);
    if (r == 0) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &status, 0);
    }
    close(p->from_fd);
    p->from_fd = -1;
    p->pid = 0;
    p->len = 0;
}

/* ---- The UCI conversation ------------------------------------------------------------------ */

/* Is word the first word of line (after blanks), followed by its end or a blank? */
static const char *first_word(const char *line, const char *word)
{
    const char *t = line + strspn(line, " \t");
    size_t n = strlen(word);
    return strncmp(t, word, n) == 0 && (t[n] == 0 || t[n] == ' ' || t[n] == '\t') ? t + n : NULL;
}

bool uciproc_wait_for(UciProc *p, const char *want, double seconds, char *why, size_t whylen)
{
    char line[ENGINE_LINE_MAX];
    double deadline = clock_seconds() + seconds;
    for (;;) {
        LineStatus st = uciproc_read_line(p, line, sizeof line, deadline);
        if (st == LINE_EOF)
            return error_set(why, whylen, "exited while the runner waited for '%s'", want);
        if (st == LINE_TIMEOUT)
            return error_set(why, whylen, "sent no '%s' within %.0f s", want, seconds);
        if (first_word(line, want))
            return true;
    }
}

/* Keeps the values of `option name UCI_Variant type combo default D var A var B ...`. */
static void learn_variants(UciProc *p, const char *line)
{
    p->has_variant_option = true;
    size_t len = 0;
    for (const char *v = strstr(line, " var "); v; v = strstr(v, " var ")) {
        v += 5;
        size_t n = strcspn(v, " \t");
        if (n > 0 && len + n + 2 < sizeof p->variants)
            len += (size_t)snprintf(p->variants + len, sizeof p->variants - len, "%s%.*s", len ? " " : "", (int)n, v);
    }
}

bool uciproc_handshake(UciProc *p, const char *cmd, double seconds, char *why, size_t whylen)
{
    char err[200], line[ENGINE_LINE_MAX];
    if (!uciproc_start(p, cmd, err, sizeof err))
        return error_set(why, whylen, "could not be started: %.150s", err);
    if (!uciproc_send(p, "uci"))
        return error_set(why, whylen, "exited (or stopped reading its input)");
    double deadline = clock_seconds() + seconds;
    for (;;) {
        LineStatus st = uciproc_read_line(p, line, sizeof line, deadline);
        if (st == LINE_EOF)
            return error_set(why, whylen, "exited during the uci handshake");
        if (st == LINE_TIMEOUT)
            return error_set(why, whylen, "sent no 'uciok' within %.0f s", seconds);
        if (strncmp(line, "id name ", 8) == 0)
            snprintf(p->id_name, sizeof p->id_name, "%.120s", line + 8);
        else if (strncmp(line, "option name UCI_Variant ", 24) == 0)
            learn_variants(p, line);
        else if (first_word(line, "uciok"))
            return true;
    }
}

bool uciproc_configure(UciProc *p, const char *variant, char *const *names, char *const *values, int n, char *why,
                       size_t whylen)
{
    char cmd[600];
    if (p->has_variant_option || strcmp(variant, "chess") != 0) {
        snprintf(cmd, sizeof cmd, "setoption name UCI_Variant value %s", variant);
        if (!uciproc_send(p, cmd))
            return error_set(why, whylen, "exited (or stopped reading its input)");
    }
    for (int i = 0; i < n; i++) {
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", names[i], values[i]);
        if (!uciproc_send(p, cmd))
            return error_set(why, whylen, "exited (or stopped reading its input)");
    }
    return true;
}

bool uciproc_bestmove(const char *line, char *best, size_t len)
{
    const char *t = first_word(line, "bestmove");
    if (!t)
        return false;
    t += strspn(t, " \t");
    snprintf(best, len, "%.*s", (int)strcspn(t, " \t"), t);
    return true;
}

/* Where the word after ` key ` starts in an info line (its words in out, up to `words` of
 * them, len bytes); NULL when the key is absent. */
static const char *info_field(const char *line, const char *key, int words, char *out, size_t len)
{
    size_t klen = strlen(key);
    for (const char *s = strstr(line, key); s; s = strstr(s + 1, key)) {
        if (s == line || s[-1] != ' ' || s[klen] != ' ')
            continue;
        const char *v = s + klen + 1, *end = v;
        for (int w = 0; w < words; w++) {
            end += strspn(end, " \t");
            end += strcspn(end, " \t");
        }
        snprintf(out, len, "%.*s", (int)(end - v), v);
        return v;
    }
    return NULL;
}

bool uciproc_info_score(const char *line, UciScore *out)
{
    char multipv[16], score[40], kind[8], value[24], depth[16], rest[8];
    const char *at = first_word(line, "info") ? info_field(line, "score", 2, score, sizeof score) : NULL;
    /* `string` makes the rest of the line a text, whatever words it holds */
    const char *text = info_field(line, "string", 1, rest, sizeof rest);
    if (!at || (text && text < at))
        return false;
    if (info_field(line, "multipv", 1, multipv, sizeof multipv) && strcmp(multipv, "1") != 0)
        return false;
    UciScore sc = {0};
    if (sscanf(score, "%7s %23s", kind, value) != 2 || (strcmp(kind, "cp") != 0 && strcmp(kind, "mate") != 0) ||
        !parse_int(value, -UCI_SCORE_LIMIT, UCI_SCORE_LIMIT, &sc.value))
        return false;
    sc.mate = kind[0] == 'm';
    if (info_field(line, "depth", 1, depth, sizeof depth) && !parse_int(depth, 0, 100000, &sc.depth))
        sc.depth = 0;
    *out = sc;
    return true;
}
