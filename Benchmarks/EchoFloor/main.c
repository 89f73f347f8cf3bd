// The benchmark's floor: a minimal epoll server on a Unix socket that answers every line with a
// fixed JSON-RPC reply and does no JSON work at all. Whatever the daemon costs beyond this is
// the price of its protocol handling. Usage: echo-floor SOCKET_PATH
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_EVENTS 64
#define MAX_FDS 4096

static const char reply[] = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":\"pong\"}\n";
static char pending[MAX_FDS][8192];
static size_t pending_len[MAX_FDS];

static void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK); }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s SOCKET_PATH\n", argv[0]); return 64; }
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {0};
    addr.sun_family = AF_UNIX;
    strncpy(addr.sun_path, argv[1], sizeof(addr.sun_path) - 1);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(listener, 256) != 0) { perror("bind"); return 73; }
    set_nonblocking(listener);
    int epoll = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &ev);
    printf("ready\n");
    fflush(stdout);
    struct epoll_event events[MAX_EVENTS];
    char buffer[65536];
    for (;;) {
        int n = epoll_wait(epoll, events, MAX_EVENTS, -1);
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept(listener, NULL, NULL)) >= 0) {
                    if (client >= MAX_FDS) { close(client); continue; }
                    set_nonblocking(client);
                    pending_len[client] = 0;
                    struct epoll_event cev = {.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(epoll, EPOLL_CTL_ADD, client, &cev);
                }
                continue;
            }
            ssize_t got = read(fd, buffer, sizeof(buffer));
            if (got <= 0) {
                if (got < 0 && errno == EAGAIN) continue;
                close(fd);
                continue;
            }
            // One fixed reply per complete line; partial lines wait for the rest.
            size_t lines = 0;
            for (ssize_t k = 0; k < got; k++) {
                if (buffer[k] == '\n') { lines++; pending_len[fd] = 0; } else if (pending_len[fd] < sizeof(pending[0])) { pending_len[fd]++; }
            }
            for (size_t k = 0; k < lines; k++) {
                if (write(fd, reply, sizeof(reply) - 1) < 0) break;
            }
        }
    }
}
