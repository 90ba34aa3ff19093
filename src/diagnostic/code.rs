//! The registry of diagnostic codes: one row per code, never renumbered, never reused.
//!
//! Each row: variant, code, category, default severity, summary (one line). The long
//! explanation of every code lives in `docs/codes/FABnnn.md` and is compiled in.

use serde::Serialize;

use super::{Category, Severity};

macro_rules! codes {
    ($( $variant:ident $code:literal $cat:ident $sev:ident $summary:literal ),* $(,)?) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $( $variant ),* }

        impl Code {
            pub const ALL: &'static [Code] = &[ $( Code::$variant ),* ];

            /// `FAB201`-style spelling, used everywhere codes are shown.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code ),* }
            }

            pub fn category(self) -> Category {
                match self { $( Code::$variant => Category::$cat ),* }
            }

            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev ),* }
            }

            /// One-line description of what the code reports.
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary ),* }
            }

            /// The long explanation (Markdown), as printed by `fabricc explain`.
            pub fn explanation(self) -> &'static str {
                match self {
                    $( Code::$variant => include_str!(concat!("../../docs/codes/", $code, ".md")) ),*
                }
            }
        }
    };
}

codes! {
    // syntax
    SyntaxError          "FAB001" Syntax Error "the text does not follow the grammar",
    UnterminatedString   "FAB002" Syntax Error "a string is not closed on its line",
    BadQuantity          "FAB003" Syntax Error "a number has a missing or wrong unit",
    UnknownKeyword       "FAB004" Syntax Error "a statement or property keyword is not known here",
    OutOfRange           "FAB005" Syntax Error "a number is outside the range its property allows",
    BadPattern           "FAB006" Syntax Error "a name or name pattern is malformed",
    LimitExceeded        "FAB007" Syntax Error "an input limit (range size, device count, nesting, input size) was exceeded",
    BadInput             "FAB008" Syntax Error "the input is not readable text",
    ImportNotFound       "FAB009" Syntax Error "an imported file cannot be read",
    ImportCycle          "FAB010" Syntax Error "files import each other in a cycle",
    MisplacedItem        "FAB011" Syntax Error "a statement is in a place where it is not allowed",
    YamlInput            "FAB012" Syntax Error "a YAML input file does not match the fabric schema",
    // names
    Undefined            "FAB101" Name Error "a name is used but never declared",
    Duplicate            "FAB102" Name Error "a name is declared twice",
    SetTwice             "FAB103" Name Error "a property of one device or class is set twice",
    UnusedModel          "FAB104" Name Warning "a switch or NIC model is declared but never used",
    MissingProperty      "FAB105" Name Error "a required property is missing",
    NotAllowedHere       "FAB106" Name Error "a property is not allowed in this block",
    BadNameTemplate      "FAB107" Name Error "a generator name template gives invalid or clashing names",
    UnknownPlatform      "FAB108" Name Error "a `platform` names no entry of the built-in catalogue",
    PlatformOs           "FAB109" Name Error "a model's `os` is not one its platform runs",
    PlatformOverride     "FAB110" Name Warning "an explicit model property contradicts its platform",
    ModelIncomplete      "FAB111" Name Error "a switch model lacks what a build needs, and no platform supplies it",
    BufferModelNotSonic  "FAB112" Name Warning "`buffer-model` is set on a model whose OS is not SONiC",
    AllowNotWarning      "FAB113" Name Error "an `allow` names no finding code, or a code that is not a warning",
    HashKeepsNoFlowField "FAB114" Name Warning "a `load-balance` `hash` keeps no address or port field, so traffic that is not RoCE is not spread across paths",
    FillLevelNoBase      "FAB115" Ecn Error "an ECN fill level (`ecn min 55%`) is in force on a switch whose queue buffer is unknown, so it has no bytes to mark at",
    CaseClash            "FAB120" Name Error "two devices' names differ only in case, so their output folders collide on case-insensitive file systems",
    QueueShared          "FAB121" Name Error "classes share a switch queue but differ in loss behaviour or lossless PFC priority",
    TrafficClassTwoQueues "FAB122" Name Error "classes share a switch traffic class but name different queues",
    PlaneName            "FAB123" Name Error "a tier built once per plane has names that do not say which plane",
    FrontendNicOnFabric  "FAB124" Name Error "a `role frontend` NIC is linked to a switch, so it would join the lossless fabric",
    BondUnfit            "FAB125" Topology Error "a `bond` or `dual-tor` cannot be built: single-port NICs, `dual-tor` over planes, or a wiring that puts both ports on one ToR",
    BondNotCreated       "FAB126" Output Warning "a host's `bond` is not created by its host script (the NIC's driver has no RoCE LAG fabricc writes); its ports stay separate RoCE devices",
    BondSwitchSideMissing "FAB127" Output Warning "a switch target does not write the LAG/multi-chassis side of a host bond; the device keeps the ports as separate ports",
    BreakoutTooFast      "FAB130" Name Error "a port group's breakout sub-ports add up to more than the cage's speed",
    BreakoutNoMode       "FAB131" Name Error "a port group's breakout is not one of the platform's cage breakout modes",
    LinecardInvalid      "FAB140" Name Error "a `linecard` names a card or slot its chassis does not have, or a chassis model places no card",
    ChassisNoPortNames   "FAB141" Name Error "the model's OS has no port names for its modular chassis, or a port has none on its line cards",
    // deadlock
    CyclicBufferDependency "FAB201" Deadlock Error "deadlock possible (cyclic buffer dependency)",
    PriorityDecrease     "FAB202" Deadlock Error "priority rewrites form a cycle, so no order of priorities satisfies Tagger",
    LosslessLimit        "FAB203" Deadlock Error "a switch needs more lossless priorities than its model supports",
    ScenarioLimit        "FAB204" Deadlock Warning "the failure scenarios to prove exceed `--max-scenarios`: deadlock freedom under failures is unproven",
    // ecn (DCQCN marking, docs/physics.md §3)
    EcnInverted          "FAB301" Ecn Error "`ecn min` is not below `ecn max` (ECN-1)",
    EcnStepMarking       "FAB302" Ecn Warning "`ecn min` equals `ecn max` with probability 100%: step marking (ECN-1)",
    EcnProbability       "FAB303" Ecn Error "the ECN marking probability is 0% (ECN-2)",
    EcnAfterPause        "FAB304" Ecn Error "`ecn min` is not below the static PFC pause threshold: PFC pauses before ECN marks (ECN-3)",
    EcnMaxAbovePause     "FAB305" Ecn Warning "`ecn max` is above the static PFC pause threshold (ECN-4)",
    EcnMaxAboveQueue     "FAB306" Ecn Error "`ecn max` is above what the egress queue can hold (ECN-5)",
    EcnMinBelowBdp       "FAB307" Ecn Warning "`ecn min` is below C·RTT/7 at the link speed (ECN-6)",
    EcnOffOnLossless     "FAB308" Ecn Error "a lossless DCQCN class has ECN marking off on a switch (ECN-7)",
    CnpNotFirst          "FAB309" Ecn Error "the CNP class is not served strictly before the DCQCN data it reports on (ECN-8)",
    NicEcnOff            "FAB310" Ecn Error "a host NIC has ECN off for a DCQCN class (ECN-9)",
    EcnNotScaled         "FAB311" Ecn Advice "the same ECN thresholds are used at different link speeds (ECN-10)",
    EcnWorstCase         "FAB312" Ecn Advice "`ecn min` is above the worst-case PFC pause point (ECN-11)",
    NicCnpMismatch       "FAB313" Ecn Warning "host NICs send CNPs on another DSCP or priority than the switches' CNP class, and the host script cannot always change it",
    NicCcUnknown         "FAB314" Ecn Advice "the host script leaves the NIC's CNP marking or DCQCN to the NIC, whose default fabricc does not know",
    EcnWrittenAtPause    "FAB315" Ecn Warning "an ECN threshold as the target writes it (Junos fill level, NX-OS kbytes) reaches the PFC pause point, though the model's bytes do not",
    // headroom and buffer (docs/physics.md §1–2)
    HeadroomTooSmall     "FAB401" Headroom Error "a `headroom` override is below what the port needs (HR-1)",
    NicCableIgnored      "FAB402" Headroom Warning "a host cable is too long for mlx5's `--cable_len`, so the NIC headroom is sized for 7 m",
    NicBufferTooSmall    "FAB403" Headroom Error "a NIC model's buffer cannot hold a lossless receive buffer for every lossless priority",
    NicHeadroomFirmware  "FAB404" Headroom Advice "a host cable is longer than the 7 m mlx5 sizes NIC headroom for, and the NIC's receive buffers are left to its firmware",
    BufferExceeded       "FAB451" Buffer Error "headroom and pause thresholds exceed the switch buffer (HR-2)",
    TooManyLossless      "FAB452" Buffer Error "a switch runs more lossless priorities than its model supports (HR-4)",
    // qos plan (class declarations)
    DscpOverlap          "FAB501" Qos Error "two classes claim the same DSCP value",
    PriorityConflict     "FAB502" Qos Error "classes share a priority but differ in loss behaviour",
    BandwidthSum         "FAB503" Qos Error "the ETS shares of the non-strict classes do not sum to 100%",
    NoCnpClass           "FAB504" Qos Error "a DCQCN class needs a CNP class, and there is none",
    LosslessDscpLossy    "FAB505" Qos Error "a device classifies a DSCP of a lossless class into a priority without PFC (QOS-1)",
    PriorityMismatch     "FAB506" Qos Error "the two ends of a link use different priorities for a lossless class (QOS-3)",
    PfcMismatch          "FAB507" Qos Error "PFC runs on a priority at one end of a link only (QOS-2)",
    MtuTooSmall          "FAB508" Qos Error "a switch port MTU is too small for RoCE frames",
    // topology
    PortsExceeded        "FAB601" Topology Error "a device has more links than ports",
    LinkSpeed            "FAB602" Topology Error "a link is faster than a port it uses, or its ends disagree",
    IncompleteRail       "FAB603" Topology Warning "a rail is not complete: a host NIC is not on its rail's leaf",
    Oversubscription     "FAB604" Topology Warning "the wired oversubscription differs from the declared one",
    Isolated             "FAB605" Topology Warning "a switch or host has no links",
    CannotWire           "FAB606" Topology Error "a generated tier cannot be wired with the ports its model has",
    BadLink              "FAB607" Topology Error "a link joins a device to itself or two hosts",
    PlanesMismatch       "FAB608" Topology Error "`planes N` does not match the NICs' ports or sits on an upper tier",
    WiringStyle          "FAB609" Topology Error "a tier's `wiring` style cannot be built with its ports, or sits on an upper tier",
    ZipLengths           "FAB610" Topology Error "a `zip` link pattern pairs two ends of different lengths",
    UnderSubscribed      "FAB615" Topology Warning "host NICs sit on switch ports several times their speed that the cage could break out",
    LeafSwitchesIgnored  "FAB616" Topology Warning "`switches N` on a leaf tier is not used: the hosts and ports decide the leaf count",
    SlowPortTaken        "FAB617" Topology Warning "a link sits on a slower switch port while a faster one is free or holds a slower link (explicit links by statement order, generated uplinks by port order)",
    SpareHosts           "FAB618" Topology Error "a generated tier has more spare hosts than its leaves have spare ports (after the downlinks and uplinks)",
    PlaneListReplaced    "FAB619" Topology Warning "a host's `plane` list differs from the planes a tier's `planes N` wires, and is replaced",
    UplinksExceedUse     "FAB620" Topology Advice "a tier's switches have more uplink capacity than the hosts and switches below them can send: the tier is sized by its ports, not by what is attached",
    // routing
    Unreachable          "FAB701" Routing Warning "a pair of NICs has no route under the routing model",
    RoutingLoop          "FAB702" Routing Error "static routes forward traffic in a loop",
    NotAdjacent          "FAB703" Routing Error "a route, path or rewrite names a hop that is not a link",
    PeerLinkUnproven     "FAB704" Routing Warning "MLAG failover across a peer link is not covered by the deadlock proof: routing also sends traffic across that link",
    // watchdog
    WatchdogOff          "FAB801" Watchdog Warning "the PFC watchdog is off on a switch with lossless priorities",
    // rollout (`fabricc plan`: the states a fabric passes through while a change rolls out)
    RolloutLinkDisagrees "FAB810" Rollout Error "a step of the rollout leaves a link whose two ends disagree about what is lossless",
    RolloutMtu           "FAB811" Rollout Error "a step of the rollout has hosts sending frames larger than a switch port of the fabric takes",
    RolloutDeadlock      "FAB812" Rollout Error "a step of the rollout is not proven free of PFC deadlock",
    RolloutFlagDay       "FAB813" Rollout Warning "the change cannot be made make-before-break: the plan drains the fabric's lossless traffic for one wave",
    // import, per port (issue 34, U17: what one port of a deployed switch does differently)
    ImportPortExtraPfc   "FAB814" Import Warning "a port pauses a priority its switch runs lossy, so that traffic is paused on one hop",
    ImportStrayBufferPg  "FAB815" Import Warning "a `BUFFER_PG` entry fabricc would not write: a lossy priority with reserved headroom, or a PG that overlaps or outlives a lossless one",
    SonicLayoutAssumed   "FAB818" Output Advice "a SONiC SKU's buffer layouts differ by switch type (`t0`, `t1`, `t2`) and fabricc writes one, not knowing the switch's `DEVICE_METADATA` `type`",
    // output (build)
    TargetCannotExpress  "FAB901" Output Error "a target OS or the host script cannot express what the fabric asks of a device",
    TemplateFailed       "FAB902" Output Error "a template failed to render a device's configuration",
    MissingBuildInput    "FAB903" Output Error "a value needed to generate a device's configuration is missing",
    TargetIgnores        "FAB904" Output Warning "a target does not configure a property the fabric sets; the switch keeps its own behaviour",
    DeviceManaged        "FAB905" Output Advice "a target leaves a value fabricc computed (headroom, buffers, port settings) to the switch's own sizing",
    TargetApproximates   "FAB906" Output Warning "a target configures a property only approximately (rounded, clamped or shared)",
    TargetAdjusts        "FAB907" Output Advice "a target states a value in its own form, with a difference that does not matter for lossless traffic",
    ReleaseLacks         "FAB908" Output Warning "the switch's OS release cannot configure a property, so it is left out",
    PlatformDependent    "FAB909" Output Warning "whether a line takes effect depends on the switch platform",
    EcnNotMarked         "FAB910" Output Warning "a class sets ECN thresholds but runs no DCQCN, so no switch marks ECN for it",
    HcclDefaultClass     "FAB911" Output Advice "Ascend NPU hosts' HCCL marks RoCE traffic with DSCP 33 and service level 4 unless the job loads the host's hccl.env, and the fabric's RoCE class is another",
    ReadbackMistake      "FAB912" Output Error "a switch file, read back with the import readers, says something other than what the checks proved",
    NicIdentityGuessed   "FAB920" Output Advice "hosts declare no NIC identity, so their host scripts assume RDMA devices mlx5_0, mlx5_1, … in NIC order",
    RoceClassNoDefault   "FAB921" Output Advice "a second lossless or DCQCN class gets no default ToS on hosts; only applications that set their own reach it",
    UnknownNicDriver     "FAB922" Output Error "a NIC model names a driver fabricc writes no host script for",
    // load balancing (issue 20 item 4)
    LoadBalanceNotRendered "FAB930" Output Warning "a target does not configure a `load-balance` property; its switches keep their default per-flow ECMP hashing",
    SonicHashFieldUnsupported "FAB931" Output Warning "SONiC has no name for a `hash` field (the RoCE QP), so fabricc writes no SWITCH_HASH and SONiC switches keep their default ECMP hash",
    // SONiC (issue 14)
    SonicAsicUnknown     "FAB950" Output Error "a SONiC switch model names no catalogue platform, so its ASIC vendor (Spectrum or Broadcom tables) is unknown",
    SonicBufferModelUnsupported "FAB951" Output Error "`buffer-model dynamic` on a SONiC platform that has no dynamic buffer manager",
    SonicNoLookupRow     "FAB952" Output Error "traditional buffer model on Spectrum: a lossless port's speed and cable have no row in the SKU's `pg_profile_lookup.ini`, so buffermgrd loses its PG at the first shutdown",
    SonicLookupRowMissing "FAB953" Output Advice "Broadcom SONiC: a lossless port's speed and cable have no `pg_profile_lookup.ini` row; buffermgrd logs an error at every port event but keeps fabricc's PG",
    SonicLanesMismatch   "FAB954" Output Warning "a SONiC port runs its NIC's speed on other lanes than the NIC (400G on 8 lanes facing a ConnectX-7 on 4): a DAC or AOC does not link, optics that convert the lanes do",
    SonicHeadroomPinned  "FAB955" Output Advice "dynamic buffer model: fabricc pins some ports' headroom because SONiC's own formula gives less than the fabric needs",
    SonicSkuUnfit        "FAB956" Output Error "no SONiC SKU of the platform runs the model's ports, or the SKU lacks the buffer tables fabricc needs",
    SkuPorts             "FAB957" Output Error "a SKU folder's `port_config.ini` does not fit the platform: a row, lane, name, cage or breakout it has not",
    SkuBuffers           "FAB958" Output Error "a SKU folder's buffer tables are malformed, computed by the template, or do not cover its ports",
    SkuUnreadable        "FAB959" Output Error "a `sku` folder cannot be used: it cannot be read, or its model is not SONiC on a catalogue platform",
    // import (`fabricc import`, `check --state`: a deployed fabric read back as a model)
    ImportNoState        "FAB960" Import Warning "a device of the state directory has no state import can read; it is left out",
    ImportUnreadable     "FAB961" Import Error "a state file cannot be read or parsed",
    ImportNoTopology     "FAB962" Import Warning "a device's links cannot be known from its state (no neighbour table, or a neighbour that names no port)",
    ImportNoCable        "FAB963" Import Warning "a port states no cable length, so the link gets the default 100m",
    ImportPortsDiffer    "FAB964" Import Warning "ports of one switch (or two ends of a link) differ in a value the `.fab` holds once",
    ImportCannotCarry    "FAB965" Import Warning "a deployed value the `.fab` cannot express is left out",
    ImportInferred       "FAB966" Import Advice "a value the state does not hold was inferred; the finding says from what",
    ImportRoute          "FAB967" Import Warning "a static route cannot be placed on the fabric's hosts and links, so it is left out",
    ImportHostNoState    "FAB968" Import Warning "a host is known only from its neighbours; it is taken to run the fabric's classes",
    // drift (`fabricc verify`: a device's collected state against what the build generates)
    StateDiffers         "FAB970" Drift Error "a setting fabricc generates has another value on the device",
    StateMissing         "FAB971" Drift Error "a setting fabricc generates is not on the device",
    StateExtra           "FAB972" Drift Error "the device has a setting in fabricc's scope that fabricc did not generate",
    StateNoDevice        "FAB973" Drift Error "no state was collected for a device of the fabric",
    StateUnreadable      "FAB974" Drift Error "a state file cannot be read or parsed",
    StateUnknownDevice   "FAB975" Drift Warning "a folder of the state directory names no device of the fabric",
    StateLeftoverPort    "FAB976" Drift Error "a port outside the fabric still carries fabricc's QoS profile or policy",
    // wiring (`fabricc verify`: LLDP neighbours against the cabling plan)
    WiringPeer           "FAB980" Wiring Error "an LLDP neighbour differs from the cabling plan",
    WiringNoPeer         "FAB981" Wiring Warning "LLDP reports no neighbour on a port the cabling plan uses",
    WiringUnplanned      "FAB982" Wiring Error "LLDP reports a fabric device on a port the cabling plan leaves empty",
    // import, continued (the queue plan, issue 17 item f)
    ImportOtherQueue     "FAB990" Import Warning "a switch puts a class in another queue than the fabric's plan",
}

impl Code {
    /// Accepts `FAB201`, `fab201` and `201`.
    pub fn parse(text: &str) -> Option<Code> {
        let t = text.trim();
        let digits = t
            .strip_prefix("FAB")
            .or_else(|| t.strip_prefix("fab"))
            .unwrap_or(t);
        Code::ALL
            .iter()
            .copied()
            .find(|c| &c.as_str()[3..] == digits)
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
