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
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <simgrid/s4u.hpp>
#include <smpi/smpi.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
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
    bool same_node = src != nullptr && dst != nullptr &&
                     (src == dst || (src->get_englobing_zone() == dst->get_englobing_zone() &&
                                     src->get_englobing_zone()->get_property("autocoll/node")));
    return overhead(same_node ? o.node : o.network, size);
}

std::string zone_property(const simgrid::s4u::NetZone* zone, const char* name)
{
    const char* value = zone->get_property(name);
    return value ? value : "0:0:0";
}

/* ---- The platform with its nodes built out (AUTOCOLL_PLATFORM_CORES_PER_NODE > 1) ---------------- */

using boost::property_tree::ptree;
namespace s4u = simgrid::s4u;

[[noreturn]] void fail(const std::string& what)
{
    throw std::invalid_argument(what);
}

/* "100Gbps" -> bytes a second, "0.25us" -> seconds: SimGrid's units (its XML reference). */
double with_unit(const std::string& text, const std::vector<std::pair<std::string, double>>& units,
                 const std::string& what)
{
    size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        fail(what + ": \"" + text + "\" is not a number with a unit");
    }
    std::string unit = text.substr(used);
    for (const auto& [name, scale] : units)
        if (unit == name) return value * scale;
    fail(what + ": unknown unit in \"" + text + "\"");
}

double bandwidth(const std::string& text, const std::string& what)
{
    static const std::vector<std::pair<std::string, double>> units = {
        {"Bps", 1.0},        {"kBps", 1e3},         {"MBps", 1e6},        {"GBps", 1e9},
        {"TBps", 1e12},      {"KiBps", 1024.0},     {"MiBps", 1048576.0}, {"GiBps", 1073741824.0},
        {"bps", 0.125},      {"kbps", 125.0},       {"Mbps", 1.25e5},     {"Gbps", 1.25e8},
        {"Tbps", 1.25e11}};
    return with_unit(text, units, what);
}

double latency(const std::string& text, const std::string& what)
{
    static const std::vector<std::pair<std::string, double>> units = {
        {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
    return with_unit(text, units, what);
}

double number(const std::string& text, const std::string& what)
{
    size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !(value > 0.0))
        fail(what + ": \"" + text + "\" is not a positive number");
    return value;
}

/* "2;32,32;1,16;1,2" -> {{2}, {32, 32}, {1, 16}, {1, 2}} */
std::vector<std::vector<unsigned>> topo_numbers(const std::string& text, const std::string& what)
{
    std::vector<std::vector<unsigned>> parts(1);
    std::string digits;
    auto flush = [&]() {
        if (digits.empty()) fail(what + ": topo_parameters \"" + text + "\"");
        parts.back().push_back(static_cast<unsigned>(std::stoul(digits)));
        digits.clear();
    };
    for (char c : text) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits += c;
        } else if (c == ',' || c == ';') {
            flush();
            if (c == ';') parts.emplace_back();
        } else {
            fail(what + ": topo_parameters \"" + text + "\"");
        }
    }
    flush();
    return parts;
}

std::vector<unsigned> radicals(const std::string& text, const std::string& what)
{
    std::vector<unsigned> numbers;
    std::stringstream parts(text);
    std::string part;
    while (std::getline(parts, part, ',')) {
        unsigned first, last;
        char extra;
        int n = std::sscanf(part.c_str(), "%u-%u%c", &first, &last, &extra);
        if (n == 1) last = first;
        if ((n != 1 && n != 2) || last < first) fail(what + ": radical \"" + text + "\"");
        for (unsigned i = first; i <= last; i++) numbers.push_back(i);
    }
    return numbers;
}

std::string attribute(const ptree& element, const std::string& name, const std::string& what)
{
    auto value = element.get_optional<std::string>("<xmlattr>." + name);
    if (!value) fail(what + " has no " + name);
    return *value;
}

std::string attribute_or(const ptree& element, const std::string& name,
                         const std::string& otherwise)
{
    return element.get<std::string>("<xmlattr>." + name, otherwise);
}

/* What a node is made of: `cores` hosts (one a rank), each with its own full-duplex link at one
 * core's copy rate (its sends on one side, its receives on the other: one pair moves at most a
 * core's rate however many messages it has in flight, a rank that sends and receives at once
 * does both at that rate), the node's memory link shared by every transfer inside the node,
 * and a router through which the node reaches the network. */
struct NodeShape {
    unsigned cores;         /* hosts of each node in use */
    unsigned nodes_in_use;  /* the first nodes (document order) that hold ranks; others: 1 host */
    std::string speed;      /* one core's speed, as the cluster gives it */
    double core_copy_bw;    /* bytes a second: the cluster's loopback_bw */
    double memory_bw;       /* bytes a second: the root zone's autocoll/node-memory-bw */
    double core_latency;    /* seconds: half the cluster's loopback_lat */
};

/* One node: a Full zone of its core hosts ("<node>.core<i>") and a router "<node>.nic".
 * Core i to core j crosses core i's link up (sending), the memory link and core j's link down
 * (receiving); a core to itself its own link up; a core to the router and back the node's
 * adapter, a link without a bound (SimGrid needs a link on a route; the network's links are
 * outside the node). The adapter's transfers do not load the memory link: with them on it,
 * SimGrid 3.32's solver crashed (a segmentation fault in lmm::MaxMin::do_solve) on an alltoall
 * of 64 KiB over 8 nodes of 8 ranks of the dragonfly, and at 12.5 GB/s or less beside 100 GB/s
 * they would bind only where the node's own transfers fill its memory. */
std::pair<simgrid::kernel::routing::NetPoint*, simgrid::kernel::routing::NetPoint*>
make_node(const s4u::NetZone* parent, const std::string& name, unsigned index,
          const NodeShape& shape)
{
    using Direction = s4u::LinkInRoute::Direction;
    unsigned count = index < shape.nodes_in_use ? shape.cores : 1;
    s4u::NetZone* node = s4u::create_full_zone(name);
    node->set_parent(parent);
    node->set_property("autocoll/node", std::to_string(index));
    /* The memory link only where it can bind: every transfer inside the node leaves a core's
     * link, so count cores' rates within the memory's never fill it, and the link would only
     * make the solver slower (4.2 s of wall time against 10.7 s for two segmented bcasts of
     * 1 MiB on 8 ranks of fat-tree-ib, the same simulated times). */
    const s4u::Link* memory = nullptr;
    if (count * shape.core_copy_bw > shape.memory_bw)
        memory = node->create_link(name + ".memory", shape.memory_bw)
                     ->set_sharing_policy(s4u::Link::SharingPolicy::SHARED)
                     ->seal();
    simgrid::kernel::routing::NetPoint* nic = node->create_router(name + ".nic");
    const s4u::Link* adapter = node->create_link(name + ".adapter", 1e15)
                                   ->set_sharing_policy(s4u::Link::SharingPolicy::FATPIPE)
                                   ->seal();
    std::vector<simgrid::kernel::routing::NetPoint*> cores;
    std::vector<const s4u::Link*> links;
    for (unsigned c = 0; c < count; c++) {
        std::string core = name + ".core" + std::to_string(c);
        s4u::Host* host = node->create_host(core, shape.speed);
        host->set_property("autocoll/node", std::to_string(index));
        host->set_property("autocoll/node-name", name);
        cores.push_back(host->seal()->get_netpoint());
        links.push_back(node->create_split_duplex_link(core + ".copy", shape.core_copy_bw)
                            ->set_latency(shape.core_latency)
                            ->seal());
    }
    for (unsigned i = 0; i < count; i++) {
        node->add_route(cores[i], cores[i], nullptr, nullptr,
                        {s4u::LinkInRoute(links[i], Direction::UP)}, false);
        node->add_route(cores[i], nic, nullptr, nullptr, {s4u::LinkInRoute(adapter)}, true);
        for (unsigned j = 0; j < count; j++)
            if (j != i) {
                std::vector<s4u::LinkInRoute> route{s4u::LinkInRoute(links[i], Direction::UP)};
                if (memory) route.emplace_back(memory);
                route.emplace_back(links[j], Direction::DOWN);
                node->add_route(cores[i], cores[j], nullptr, nullptr, route, false);
            }
    }
    node->seal();
    return {node->get_netpoint(), nic};
}

/* A <cluster> of the file, its hosts replaced by nodes. */
void make_cluster(const s4u::NetZone* parent, const ptree& element, unsigned& node_index,
                  NodeShape shape)
{
    std::string id = attribute(element, "id", "a <cluster>");
    std::string what = "cluster " + id;
    for (const char* unsupported : {"bb_bw", "bb_lat", "limiter_link", "router_id"})
        if (element.get_optional<std::string>(std::string("<xmlattr>.") + unsupported))
            fail(what + ": " + unsupported + " is not built by this loader");
    std::string prefix = attribute_or(element, "prefix", "");
    std::string suffix = attribute_or(element, "suffix", "");
    std::vector<unsigned> numbers = radicals(attribute(element, "radical", what), what);
    shape.speed = attribute(element, "speed", what);
    unsigned cores = static_cast<unsigned>(number(attribute_or(element, "core", "1"), what));
    if (cores < shape.cores)
        fail(what + ": " + std::to_string(shape.cores) + " processes per node, but its nodes have " +
             std::to_string(cores) + " cores");
    shape.core_copy_bw = bandwidth(attribute(element, "loopback_bw", what), what);
    shape.core_latency = latency(attribute(element, "loopback_lat", what), what) / 2.0;
    double bw = bandwidth(attribute(element, "bw", what), what);
    double lat = latency(attribute(element, "lat", what), what);
    std::string policy_name = attribute_or(element, "sharing_policy", "SHARED");
    s4u::Link::SharingPolicy policy;
    if (policy_name == "SPLITDUPLEX")
        policy = s4u::Link::SharingPolicy::SPLITDUPLEX;
    else if (policy_name == "SHARED")
        policy = s4u::Link::SharingPolicy::SHARED;
    else if (policy_name == "FATPIPE")
        policy = s4u::Link::SharingPolicy::FATPIPE;
    else
        fail(what + ": sharing_policy " + policy_name);
    std::string topology = attribute_or(element, "topology", "FLAT");
    unsigned first = node_index;
    node_index += static_cast<unsigned>(numbers.size());

    if (topology == "FLAT") {
        /* As SimGrid builds a flat cluster (sg_platf.cpp): a star, a private link per node. */
        s4u::NetZone* star = s4u::create_star_zone(id);
        star->set_parent(parent);
        for (size_t i = 0; i < numbers.size(); i++) {
            std::string name = prefix + std::to_string(numbers[i]) + suffix;
            auto [node, nic] = make_node(star, name, first + static_cast<unsigned>(i), shape);
            std::string link_id = id + "_link_" + std::to_string(numbers[i]);
            const s4u::Link* link =
                policy == s4u::Link::SharingPolicy::SPLITDUPLEX
                    ? static_cast<const s4u::Link*>(
                          star->create_split_duplex_link(link_id, bw)->set_latency(lat)->seal())
                    : star->create_link(link_id, bw)
                          ->set_sharing_policy(policy)
                          ->set_latency(lat)
                          ->seal();
            star->add_route(node, nullptr, nic, nullptr,
                            {s4u::LinkInRoute(link, s4u::LinkInRoute::Direction::UP)}, true);
        }
        auto* router = star->create_router(prefix + id + "_router" + suffix);
        star->add_route(router, nullptr, nullptr, nullptr, {}, true);
        star->seal();
        return;
    }

    auto leaf = [&](s4u::NetZone* zone, const std::vector<unsigned long>&, unsigned long n) {
        if (n >= numbers.size()) fail(what + ": more leaves than radicals");
        return make_node(zone, prefix + std::to_string(numbers[n]) + suffix,
                         first + static_cast<unsigned>(n), shape);
    };
    s4u::ClusterCallbacks callbacks(leaf);
    auto p = topo_numbers(attribute(element, "topo_parameters", what), what);
    s4u::NetZone* zone = nullptr;
    if (topology == "FAT_TREE") {
        if (p.size() != 4 || p[0].size() != 1) fail(what + ": FAT_TREE topo_parameters");
        zone = s4u::create_fatTree_zone(id, parent, s4u::FatTreeParams(p[0][0], p[1], p[2], p[3]),
                                        callbacks, bw, lat, policy);
    } else if (topology == "TORUS") {
        if (p.size() != 1) fail(what + ": TORUS topo_parameters");
        zone = s4u::create_torus_zone(id, parent,
                                      std::vector<unsigned long>(p[0].begin(), p[0].end()),
                                      callbacks, bw, lat, policy);
    } else if (topology == "DRAGONFLY") {
        if (p.size() != 4 || p[0].size() != 2 || p[1].size() != 2 || p[2].size() != 2 ||
            p[3].size() != 1)
            fail(what + ": DRAGONFLY topo_parameters");
        zone = s4u::create_dragonfly_zone(
            id, parent,
            s4u::DragonflyParams({p[0][0], p[0][1]}, {p[1][0], p[1][1]}, {p[2][0], p[2][1]},
                                 p[3][0]),
            callbacks, bw, lat, policy);
    } else {
        fail(what + ": topology " + topology);
    }
    zone->seal();
}

/* The file's platform with `cores` hosts in each of its first `nodes_in_use` nodes: its <config> block (where the command line
 * has not set the item, as SimGrid's XML loader does), its root zone's properties, its
 * clusters (nodes built out), links and routes between clusters. */
void build_platform(const std::string& file, unsigned cores, unsigned nodes_in_use)
{
    ptree doc;
    boost::property_tree::read_xml(file, doc);
    const ptree& platform = doc.get_child("platform");
    for (const auto& [tag, config] : platform) {
        if (tag != "config") continue;
        for (const auto& [ptag, prop] : config)
            if (ptag == "prop") {
                std::string key = attribute(prop, "id", "a <config> <prop>");
                if (simgrid::config::is_default(key.c_str()))
                    simgrid::config::set_as_string(key.c_str(), attribute(prop, "value", key));
            }
    }
    const ptree* root_element = nullptr;
    for (const auto& [tag, element] : platform) {
        if (tag == "zone") {
            if (root_element) fail("more than one root zone");
            root_element = &element;
        } else if (tag != "config" && tag != "<xmlattr>" && tag != "<xmlcomment>") {
            fail("<" + tag + "> at the top level is not built by this loader");
        }
    }
    if (!root_element) fail("no root zone");
    std::string root_id = attribute(*root_element, "id", "the root zone");
    if (attribute(*root_element, "routing", root_id) != "Full")
        fail(root_id + ": the root zone's routing must be Full");
    s4u::NetZone* root = s4u::create_full_zone(root_id);
    NodeShape shape{cores, nodes_in_use, "", 0.0, 0.0, 0.0};
    std::map<std::string, const s4u::Link*> links;
    for (const auto& [tag, element] : *root_element)
        if (tag == "prop")
            root->set_property(attribute(element, "id", "a <prop>"),
                               attribute(element, "value", "a <prop>"));
    shape.memory_bw = number(root->get_property("autocoll/node-memory-bw")
                                 ? root->get_property("autocoll/node-memory-bw")
                                 : "",
                             root_id + ": autocoll/node-memory-bw");
    unsigned node_index = 0;
    for (const auto& [tag, element] : *root_element) {
        if (tag == "cluster") {
            make_cluster(root, element, node_index, shape);
        } else if (tag == "link") {
            std::string id = attribute(element, "id", "a <link>");
            double bw = bandwidth(attribute(element, "bandwidth", id), id);
            double lat = latency(attribute_or(element, "latency", "0s"), id);
            if (attribute_or(element, "sharing_policy", "SHARED") != "SPLITDUPLEX")
                fail(id + ": only SPLITDUPLEX links are built by this loader");
            links[id] = root->create_split_duplex_link(id, bw)->set_latency(lat)->seal();
        } else if (tag == "zoneRoute") {
            std::string what = "a <zoneRoute>";
            auto point = [&](const std::string& name) {
                auto* p = simgrid::s4u::Engine::get_instance()->netpoint_by_name_or_null(name);
                if (!p) fail(what + ": no netpoint " + name);
                return p;
            };
            auto zone_of = [&](const std::string& name) {
                for (auto* z : root->get_children())
                    if (z->get_name() == name) return z->get_netpoint();
                fail(what + ": no zone " + name);
            };
            std::vector<s4u::LinkInRoute> route;
            for (const auto& [ltag, ctn] : element) {
                if (ltag != "link_ctn") continue;
                std::string id = attribute(ctn, "id", what);
                if (!links.count(id)) fail(what + ": no link " + id);
                std::string dir = attribute_or(ctn, "direction", "NONE");
                route.emplace_back(links[id], dir == "UP"     ? s4u::LinkInRoute::Direction::UP
                                              : dir == "DOWN" ? s4u::LinkInRoute::Direction::DOWN
                                                              : s4u::LinkInRoute::Direction::NONE);
            }
            root->add_route(zone_of(attribute(element, "src", what)),
                            zone_of(attribute(element, "dst", what)),
                            point(attribute(element, "gw_src", what)),
                            point(attribute(element, "gw_dst", what)), route,
                            attribute_or(element, "symmetrical", "YES") == "YES");
        } else if (tag != "prop" && tag != "<xmlattr>" && tag != "<xmlcomment>") {
            fail(root_id + ": <" + tag + "> is not built by this loader");
        }
    }
    root->seal();
}

} // namespace

/* A positive count from the environment, `otherwise` where it is not set. */
unsigned count_setting(const char* name, unsigned otherwise)
{
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') return otherwise;
    char* end = nullptr;
    unsigned long n = std::strtoul(text, &end, 10);
    if (*end != '\0' || n < 1 || n > (1u << 30)) {
        std::fprintf(stderr, "node_overheads: %s=%s is not a positive count\n", name, text);
        std::exit(2);
    }
    return static_cast<unsigned>(n);
}

extern "C" void load_platform(const simgrid::s4u::Engine& e);
void load_platform(const simgrid::s4u::Engine& e)
{
    const char* file = std::getenv("AUTOCOLL_PLATFORM_FILE");
    if (file == nullptr || *file == '\0') {
        std::fprintf(stderr, "node_overheads: AUTOCOLL_PLATFORM_FILE names no platform file\n");
        std::exit(2);
    }
    unsigned cores = count_setting("AUTOCOLL_PLATFORM_CORES_PER_NODE", 1);
    unsigned nodes_in_use = count_setting("AUTOCOLL_PLATFORM_NODES_IN_USE", 1u << 30);
    try {
        if (cores > 1)
            build_platform(file, cores, nodes_in_use);
        else
            e.load_platform(file);
    } catch (const std::exception& x) {
        std::fprintf(stderr, "node_overheads: %s: %s\n", file, x.what());
        std::exit(2);
    }
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
