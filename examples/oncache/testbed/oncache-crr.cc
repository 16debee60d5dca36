/*
 * oncache-crr: a TCP connect-request-response (CRR) load generator for the ONCache testbed
 * (netperf's TCP_CRR is not in Debian). Every transaction opens a connection, sends SIZE
 * bytes, reads SIZE bytes back and closes. Both sides stop by themselves after SECONDS.
 *
 *   oncache-crr server --bind IP --port P --seconds S
 *   oncache-crr client --connect IP --port P --seconds S [--size N]
 *
 * The client prints "transactions <n> seconds <s> rate <n/s>". A bad argument or a failure
 * prints one line "oncache-crr: error: ..." and exits 1.
 */
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace
{

using Clock = std::chrono::steady_clock;

[[noreturn]] void
Fail(const std::string& what)
{
    throw std::runtime_error(what + (errno ? std::string(": ") + std::strerror(errno) : ""));
}

unsigned long
Number(const std::map<std::string, std::string>& args,
       const std::string& name,
       unsigned long min,
       unsigned long max,
       const char* fallback = nullptr)
{
    auto it = args.find(name);
    if (it == args.end() && !fallback)
    {
        throw std::runtime_error("--" + name + " is required");
    }
    std::string text = it == args.end() ? fallback : it->second;
    char* end = nullptr;
    errno = 0;
    unsigned long value = std::strtoul(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || value < min || value > max)
    {
        errno = 0;
        throw std::runtime_error("--" + name + ": '" + text + "' is not an integer in [" +
                                 std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return value;
}

sockaddr_in
Address(const std::map<std::string, std::string>& args, const std::string& name, unsigned port)
{
    auto it = args.find(name);
    if (it == args.end())
    {
        throw std::runtime_error("--" + name + " is required");
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    if (inet_pton(AF_INET, it->second.c_str(), &addr.sin_addr) != 1)
    {
        throw std::runtime_error("--" + name + ": '" + it->second + "' is not an IPv4 address");
    }
    return addr;
}

// Reads or writes exactly len bytes; false on EOF or error.
bool
Transfer(int fd, char* buf, size_t len, bool write)
{
    size_t done = 0;
    while (done < len)
    {
        ssize_t n = write ? send(fd, buf + done, len - done, MSG_NOSIGNAL)
                          : recv(fd, buf + done, len - done, 0);
        if (n <= 0)
        {
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

int
Server(const std::map<std::string, std::string>& args)
{
    unsigned port = Number(args, "port", 1, 65535);
    unsigned long seconds = Number(args, "seconds", 1, 3600);
    sockaddr_in addr = Address(args, "bind", port);
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (lfd < 0 || bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        listen(lfd, 1024) != 0)
    {
        Fail("cannot listen on port " + std::to_string(port));
    }
    auto deadline = Clock::now() + std::chrono::seconds(seconds);
    std::vector<char> buf(1 << 20);
    while (Clock::now() < deadline)
    {
        pollfd p{lfd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0)
        {
            continue;
        }
        int fd = accept(lfd, nullptr, nullptr);
        if (fd < 0)
        {
            continue;
        }
        // Echo whatever arrives until the client closes.
        timeval tv{1, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        ssize_t n;
        while ((n = recv(fd, buf.data(), buf.size(), 0)) > 0)
        {
            if (!Transfer(fd, buf.data(), static_cast<size_t>(n), true))
            {
                break;
            }
        }
        close(fd);
    }
    close(lfd);
    return 0;
}

int
Client(const std::map<std::string, std::string>& args)
{
    unsigned port = Number(args, "port", 1, 65535);
    unsigned long seconds = Number(args, "seconds", 1, 3600);
    size_t size = Number(args, "size", 1, 1 << 20, "64");
    sockaddr_in addr = Address(args, "connect", port);
    std::vector<char> buf(size, 'x');
    unsigned long transactions = 0;
    auto start = Clock::now();
    auto deadline = start + std::chrono::seconds(seconds);
    while (Clock::now() < deadline)
    {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
        {
            Fail("socket");
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        timeval tv{1, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
                  Transfer(fd, buf.data(), size, true) && Transfer(fd, buf.data(), size, false);
        close(fd);
        if (!ok)
        {
            errno = 0;
            if (transactions == 0)
            {
                Fail("no transaction with the server completed");
            }
            continue;
        }
        ++transactions;
    }
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("transactions %lu seconds %.3f rate %.0f\n",
                transactions,
                elapsed,
                transactions / elapsed);
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    try
    {
        if (argc < 2 || (std::string(argv[1]) != "server" && std::string(argv[1]) != "client"))
        {
            throw std::runtime_error("usage: oncache-crr server|client --port P --seconds S ...");
        }
        std::map<std::string, std::string> args;
        for (int i = 2; i < argc; i += 2)
        {
            std::string name = argv[i];
            if (name.rfind("--", 0) != 0 || i + 1 >= argc)
            {
                throw std::runtime_error("bad argument '" + name + "'");
            }
            args[name.substr(2)] = argv[i + 1];
        }
        const char* allowed = std::string(argv[1]) == "server" ? " bind port seconds "
                                                               : " connect port seconds size ";
        for (const auto& [name, value] : args)
        {
            if (!std::strstr(allowed, (" " + name + " ").c_str()))
            {
                throw std::runtime_error("unknown argument '--" + name + "'");
            }
        }
        return std::string(argv[1]) == "server" ? Server(args) : Client(args);
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "oncache-crr: error: %s\n", e.what());
        return 1;
    }
}
