/*
 * node_overheads.cpp - a SimGrid platform loader that gives messages inside a node their own
 * per-message host overheads (shared memory) and leaves those between nodes to the platform.
 *
 * SMPI charges one set of per-message CPU overheads, smpi/os (blocking send), smpi/ois (isend)
 * and smpi/or (receive), to every message, whatever its route: a message between two ranks of
 * one node would pay the network stack's overhead (10.29 us a message over TCP on the Ethernet
 * platforms) instead of a shared-memory transport's. SMPI 3.32 lets a program replace those
 * three settings by functions of (size, source host, destination host)
 * (smpi_register_op_cost_callback, include/smpi/smpi.h); this loader registers them:
 *
 *   - between two hosts: the platform's own smpi/os, smpi/ois, smpi/or settings (its <config>
 *     block, or --cfg on the command line), evaluated exactly as SMPI evaluates them;
 *   - inside one host: the root zone's properties autocoll/shm-os, autocoll/shm-ois and
 *     autocoll/shm-or, in the same "size:seconds:seconds-per-byte;..." form (0 where absent).
 *
 * smpirun loads a platform given as a shared object by calling its load_platform(); this one
 * first loads the XML file named by the environment variable AUTOCOLL_PLATFORM_FILE (all the
 * physics stays in that file) and then registers the functions:
 *
 *   AUTOCOLL_PLATFORM_FILE=platforms/one-switch-gbe.xml \
 *       smpirun -platform build/simgrid/libnode_overheads.so -hostfile H ... ./app
 *
 * `autocoll simgrid run` and `autocoll bench --simgrid` do this for every platform whose root
 * zone declares autocoll/shm-* (platforms/README.md). Run with the XML file alone, the same
 * platform charges the network overheads inside a node too.
 */
#include <simgrid/s4u.hpp>
#include <smpi/smpi.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/* One section of an SMPI overhead setting: from `bytes` on, seconds + per_byte x size. */
struct Section {
    size_t bytes;
    double seconds;
    double per_byte;
};

/* "65536:1e-6:0;0:5e-6:1e-9" -> sections sorted by size, as SMPI's parse_factor does. */
std::vector<Section> parse_overhead(const std::string& text, const std::string& what)
{
    std::vector<Section> sections;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(';', start);
        if (end == std::string::npos) end = text.size();
        std::string part = text.substr(start, end - start);
        unsigned long long bytes;
        double seconds, per_byte;
        char extra;
        if (std::sscanf(part.c_str(), "%llu:%lf:%lf%c", &bytes, &seconds, &per_byte, &extra) != 3)
            throw std::invalid_argument(what + ": \"" + part + "\" is not SIZE:SECONDS:PER_BYTE");
        sections.push_back({static_cast<size_t>(bytes), seconds, per_byte});
        start = end + 1;
    }
    std::sort(sections.begin(), sections.end(),
              [](const Section& a, const Section& b) { return a.bytes < b.bytes; });
    return sections;
}

/* SMPI's evaluation (smpi_host.cpp, Host::osend): the last section whose size is strictly
 * below `size`, else the first one. */
double overhead(const std::vector<Section>& sections, size_t size)
{
    if (sections.empty()) return 0.0;
    const Section* chosen = &sections.front();
    for (const Section& s : sections) {
        if (size <= s.bytes) break;
        chosen = &s;
    }
    return chosen->seconds + chosen->per_byte * static_cast<double>(size);
}

struct Overheads {
    std::vector<Section> network;
    std::vector<Section> node;
};

Overheads send_blocking, send_nonblocking, receive;

/* Messages SMPI's own collectives post may have no source host: charged as network messages. */
double cost(const Overheads& o, size_t size, const simgrid::s4u::Host* src,
            const simgrid::s4u::Host* dst)
{
    bool same_node = src != nullptr && dst != nullptr && src == dst;
    return overhead(same_node ? o.node : o.network, size);
}

std::string zone_property(const simgrid::s4u::NetZone* zone, const char* name)
{
    const char* value = zone->get_property(name);
    return value ? value : "0:0:0";
}

} // namespace

extern "C" void load_platform(const simgrid::s4u::Engine& e);
void load_platform(const simgrid::s4u::Engine& e)
{
    const char* file = std::getenv("AUTOCOLL_PLATFORM_FILE");
    if (file == nullptr || *file == '\0') {
        std::fprintf(stderr, "node_overheads: AUTOCOLL_PLATFORM_FILE names no platform file\n");
        std::exit(2);
    }
    e.load_platform(file);
    const simgrid::s4u::NetZone* root = e.get_netzone_root();
    try {
        namespace cfg = simgrid::config;
        send_blocking = {parse_overhead(cfg::get_value<std::string>("smpi/os"), "smpi/os"),
                         parse_overhead(zone_property(root, "autocoll/shm-os"), "autocoll/shm-os")};
        send_nonblocking = {
            parse_overhead(cfg::get_value<std::string>("smpi/ois"), "smpi/ois"),
            parse_overhead(zone_property(root, "autocoll/shm-ois"), "autocoll/shm-ois")};
        receive = {parse_overhead(cfg::get_value<std::string>("smpi/or"), "smpi/or"),
                   parse_overhead(zone_property(root, "autocoll/shm-or"), "autocoll/shm-or")};
    } catch (const std::exception& x) {
        std::fprintf(stderr, "node_overheads: %s: %s\n", file, x.what());
        std::exit(2);
    }
    using simgrid::s4u::Host;
    smpi_register_op_cost_callback(SmpiOperation::SEND, [](size_t size, Host* src, Host* dst) {
        return cost(send_blocking, size, src, dst);
    });
    smpi_register_op_cost_callback(SmpiOperation::ISEND, [](size_t size, Host* src, Host* dst) {
        return cost(send_nonblocking, size, src, dst);
    });
    smpi_register_op_cost_callback(SmpiOperation::RECV, [](size_t size, Host* src, Host* dst) {
        return cost(receive, size, src, dst);
    });
}
