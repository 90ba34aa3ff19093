//! The parser's productions, each input compared with its canonical printed form (moved from
//! the parser's unit tests with the whole-file printer, which is test code).

use fabricc::span::FileId;
use fabricc::syntax::parse;

use crate::printer::print;

/// Parses a whole file and compares its canonical printed form.
#[track_caller]
fn case(input: &str, expected: &str) {
    match parse(FileId(0), input) {
        Ok(f) => assert_eq!(print(&f), expected, "{input}"),
        Err(d) => panic!("{input}: {} {} at {:?}", d.code, d.message, d.primary.span),
    }
}

#[test]
fn productions() {
    case("", "");
    case("switch s[0..999999]", "switch s[0..999999]\n");
    case("switch s[1..1000001]", "switch s[1..1000001]\n");
    case("# nothing\n\n;;\n", "");
    case(
        "import \"a.fab\"\nmtu 9216",
        "import \"a.fab\"\n\nmtu 9216\n",
    );
    case(
        "import \"a.fab\"; import \"b\\\\c.fab\"",
        "import \"a.fab\"\nimport \"b\\\\c.fab\"\n",
    );
    case(
        "fabric pod-a { mtu 9216 }",
        "fabric pod-a {\n  mtu 9216\n}\n",
    );
    case("fabric \"pod a\" {}", "fabric \"pod a\" {}\n");
    case("fabric a {\n}\nfabric b {}", "fabric a {}\n\nfabric b {}\n");
    case("mtu 68\nmtu 9216", "mtu 68\nmtu 9216\n");
    case("roce-mtu 256", "roce-mtu 256\n");
    case("rtt 8us", "rtt 8us\n");
    case("rtt 0.5ms", "rtt 500us\n");
    case("description \"x\"", "description \"x\"\n");
    case("pfc-watchdog off", "pfc-watchdog off\n");
    case("pfc-watchdog", "pfc-watchdog\n");
    case(
        "pfc-watchdog detect 200ms restore 0.4s poll 10ms action alert",
        "pfc-watchdog detect 200ms restore 400ms poll 10ms action alert\n",
    );
    case("class a {}", "class a {}\n");
    case("class a { lossy }", "class a {\n  lossless off\n}\n");
    case("class a { lossless on }", "class a {\n  lossless\n}\n");
    case(
        "class a { lossless  strict }",
        "class a {\n  lossless\n  strict\n}\n",
    );
    case(
        "class a { dscp 24 , 26,28-30 }",
        "class a {\n  dscp 24,26,28-30\n}\n",
    );
    case("class a { dscp 24-24 }", "class a {\n  dscp 24\n}\n");
    case("class a { dscp other }", "class a {\n  dscp other\n}\n");
    case(
        "class a { congestion none }",
        "class a {\n  congestion none\n}\n",
    );
    case("class a { ecn off }", "class a {\n  ecn off\n}\n");
    case(
        "class a { ecn probability 1% min 1KB cnp }",
        "class a {\n  ecn probability 1% min 1000B\n  cnp\n}\n",
    );
    case(
        "class a { bandwidth 100% }",
        "class a {\n  bandwidth 100%\n}\n",
    );
    case(
        "class a { pfc-threshold 10cells }",
        "class a {\n  pfc-threshold 10cells\n}\n",
    );
    case(
        "switch-model m { os junos  ports 1 x 1G  buffer 1MB  lossless-limit 1  cell 1B  dynamic-threshold -8  description \"d\" }",
        "switch-model m {\n  os junos\n  ports 1 x 1G\n  buffer 1000000B\n  lossless-limit 1\n  cell 1B\n  dynamic-threshold -8\n  description \"d\"\n}\n",
    );
    case(
        "switch-model m { ports 2 x 400G,4 x 100G }",
        "switch-model m {\n  ports 2 x 400G, 4 x 100G\n}\n",
    );
    case(
        "nic-model n { driver mlx5  speed 100G  buffer 1KiB }",
        "nic-model n {\n  driver mlx5\n  speed 100G\n  buffer 1024B\n}\n",
    );
    case("switch a,b , c[1..2]", "switch a, b, c[1..2]\n");
    case("switch a {}", "switch a\n");
    case(
        "switch a { ecn roce off  headroom roce 1KB  pfc-threshold roce 2cells }",
        "switch a {\n  ecn roce off\n  headroom roce 1000B\n  pfc-threshold roce 2cells\n}\n",
    );
    case("host h { nic cx7 x 8 }", "host h {\n  nic cx7 x 8\n}\n");
    case("host h { nic x }", "host h {\n  nic x\n}\n");
    case(
        "host h { nic cx7  pfc off }",
        "host h {\n  nic cx7\n  pfc off\n}\n",
    );
    case("host h { ecn off }", "host h {\n  ecn off\n}\n");
    case("host h { ecn roce off }", "host h {\n  ecn roce off\n}\n");
    case("host h { ecn off off }", "host h {\n  ecn off off\n}\n");
    case(
        "host h { netdev e[0..1], f  rdma-device m }",
        "host h {\n  netdev e[0..1], f\n  rdma-device m\n}\n",
    );
    // PCI addresses as written (the resolver normalises them), in one line with others.
    case(
        "host h { nic cx7 x 2  pci 0000:0c:00.0,0D:00.1  pfc on }",
        "host h {\n  nic cx7 x 2\n  pci 0000:0c:00.0, 0D:00.1\n  pfc on\n}\n",
    );
    case(
        "host h { pci 10000:e1:00.0 }",
        "host h {\n  pci 10000:e1:00.0\n}\n",
    );
    case("link a -- b", "link a -- b\n");
    case("link a\t--\tb { count 2 }", "link a -- b {\n  count 2\n}\n");
    case("tier t { name {n} }", "tier t {\n  name {n}\n}\n");
    case(
        "tier t { name a-{rail}b }",
        "tier t {\n  name a-{rail}b\n}\n",
    );
    case(
        "tier t { downlinks 0  uplinks 0  switches 0 }",
        "tier t {\n  downlinks 0\n  uplinks 0\n  switches 0\n}\n",
    );
    case("routing none", "routing none\n");
    case(
        "routing updown; routing shortest",
        "routing updown\nrouting shortest\n",
    );
    case(
        "switch s { model m  tier 2  mtu 1500  description \"d\"  class c { cnp }  pfc-watchdog off }",
        "switch s {\n  model m\n  tier 2\n  mtu 1500\n  description \"d\"\n  class c {\n    cnp\n  }\n  pfc-watchdog off\n}\n",
    );
    case(
        "switch s { ecn c min 1KB max 2KB probability 3% }",
        "switch s {\n  ecn c min 1000B max 2000B probability 3%\n}\n",
    );
    case(
        "host h { class c { priority 1 } }",
        "host h {\n  class c {\n    priority 1\n  }\n}\n",
    );
    case(
        "link a.nic1 -- b.port2 { speed 100G  cable 1.5m }",
        "link a.nic1 -- b.port2 {\n  speed 100G\n  cable 1.5m\n}\n",
    );
    case(
        "tier t { model m  oversubscription 3:1  cable 1km }",
        "tier t {\n  model m\n  oversubscription 3:1\n  cable 1000m\n}\n",
    );
    case(
        "switch-model m { os sonic; os cumulus; os eos; os nxos; os junos }",
        "switch-model m {\n  os sonic\n  os cumulus\n  os eos\n  os nxos\n  os junos\n}\n",
    );
    case(
        "class c { ecn min 1B }\nclass d { ecn max 1B }",
        "class c {\n  ecn min 1B\n}\nclass d {\n  ecn max 1B\n}\n",
    );
    case("route at a to b via c", "route at a to b via c\n");
    case("fail a[1..2] -- b", "fail a[1..2] -- b\n");
    case("check failures 2", "check failures 2\n");
    case("path a -> b", "path a -> b\n");
    case("path class c a -> b -> c", "path class c a -> b -> c\n");
    case("path class -> b", "path class -> b\n");
    case(
        "rewrite at a from b to c priority 0 -> 7",
        "rewrite at a from b to c priority 0 -> 7\n",
    );
    case("bounce-tagging 1 -> 2 -> 3", "bounce-tagging 1 -> 2 -> 3\n");
    case("allow FAB954 ,FAB905", "allow FAB954, FAB905\n");
    case("mtu 9216 # comment\r\nrtt 1us;", "mtu 9216\nrtt 1us\n");
}
