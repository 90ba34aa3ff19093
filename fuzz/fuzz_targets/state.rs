//! bytes as a collected state file → every parser of `fabricc verify` (CONFIG_DB JSON, NVUE
//! YAML, EOS and NX-OS running-config, Junos curly and set forms, VRP and Comware
//! current-configuration, `lldp.json`, a host's
//! `state.json` of the mlx5 and DCBNL scripts) → the comparison with a generated configuration of the same target, each
//! target's scope deciding what is owned. Nothing may panic; every location a finding would
//! point at lies inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

use fabricc::render::SwitchOs;
use fabricc::verify::{self, canon, cli, host, json, junos, lldp, nvue, sonic, vrp};

/// One small generated configuration per target (fabricc's side of the comparison).
const GENERATED: &[(SwitchOs, &str)] = &[
    (
        SwitchOs::Sonic,
        r#"{"BUFFER_PG":{"Ethernet0|3-4":{"profile":"pg_lossless_400000_5m_profile"}},"PORT_QOS_MAP":{"Ethernet0":{"pfc_enable":"3,4"}},"PORT":{"Ethernet0":{"mtu":"9100"}}}"#,
    ),
    (
        SwitchOs::Cumulus,
        "- set:\n    qos:\n      pfc:\n        default-global:\n          switch-priority:\n            '3': {}\n    interface:\n      swp1:\n        qos:\n          pfc:\n            profile: default-global\n",
    ),
    (
        SwitchOs::Eos,
        "qos map dscp 26 to traffic-class 3\ninterface Ethernet1/1\n   mtu 9214\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n",
    ),
    (
        SwitchOs::Nxos,
        "policy-map type network-qos roce\n  class type network-qos c-8q-nq3\n    pause pfc-cos 3\n    mtu 9216\ninterface Ethernet1/1\n  priority-flow-control mode on\n",
    ),
    (
        SwitchOs::Junos,
        "class-of-service { forwarding-classes { class roce queue-num 3 no-loss pfc-priority 3; } interfaces { et-0/0/0 { scheduler-map sm; } } }\n",
    ),
    (
        SwitchOs::Vrp,
        "#\ndcb pfc FABRICC_ROCE\n priority 3\n#\ninterface 400GE1/0/1\n mtu 9216\n dcb pfc enable FABRICC_ROCE mode manual\n#\n",
    ),
    (
        SwitchOs::Comware,
        "qos map-table dscp-dot1p\n import 26 export 3\nquit\ninterface FourHundredGigE1/0/1\n priority-flow-control enable\n priority-flow-control no-drop dot1p 3\nquit\n",
    ),
];

const SCRIPT: &str = "E_MTU=9000\nE_TRUST=dscp\nE_PFC=0,0,0,1,0,0,0,0\nE_DSCP2PRIO=26:3\nE_ECN=3\nE_TOS=106\nE_CC_MASK=8\nNICS+=(1)\nNICS+=(2)\n";

/// The DCBNL scripts' intent (bnxt_qos.sh, ice_qos.sh, dcb_qos.sh): maps in `dcb … show` form.
const DCBNL_SCRIPTS: &[&str] = &[
    "DRIVER=bnxt\nE_ROCE_DSCP=26\nE_ROCE_PRIO=3\nE_ROCE=1\nE_DCQCN=1\nE_MTU=4200\nE_DSCP2PRIO=0,0,3\nE_PFC=\"0:off 3:on\"\nE_PRIO_TC=\"0:0 3:1 7:2\"\nE_TC_TSA=\"2:strict\"\nE_TC_BW=\"0:40 1:60\"\nE_ROCE_MODE=\"RoCE v2\"\nE_TOS=106\nE_CNP_DSCP=48\nE_CNP_PRIO=7\nNICS+=(1)\nNICS+=(2)\n",
    "DRIVER=ice\nE_DCQCN=1\nE_MTU=4200\nE_PFC=\"3:on\"\nNICS+=(1)\n",
    "DRIVER=dcb\nE_MTU=4200\nE_TC_TSA=\"7:strict\"\nNICS+=(1)\n",
];

/// What of a target's configuration fabricc owns.
type Owns = Box<dyn Fn(&[&str]) -> bool>;

fn inside(l: canon::Loc, len: usize) {
    assert!(
        l.start <= l.end && l.end as usize <= len,
        "{l:?} outside 0..{len}"
    );
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 64 * 1024 {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for &(os, generated) in GENERATED {
        let Ok((expected, form)) = verify::parse(os, generated) else {
            panic!("the generated {os:?} configuration parses");
        };
        match verify::parse(os, text) {
            Ok((actual, _)) => {
                let owns: Owns = match os {
                    SwitchOs::Sonic => {
                        let s = sonic::Scope::new(&expected);
                        Box::new(move |p| s.owns(p))
                    }
                    SwitchOs::Cumulus => {
                        let s = nvue::Scope::new(&expected);
                        Box::new(move |p| s.owns(p))
                    }
                    SwitchOs::Eos | SwitchOs::Nxos | SwitchOs::Comware => {
                        let s = cli::Scope::new(&expected);
                        Box::new(move |p| s.owns(p))
                    }
                    SwitchOs::Junos => {
                        let s = junos::Scope::new(&expected);
                        Box::new(move |p| s.owns(p))
                    }
                    SwitchOs::Vrp => {
                        let s = vrp::Scope::new(&expected);
                        Box::new(move |p| s.owns(p))
                    }
                };
                for d in canon::compare(form, &expected, &actual, &*owns) {
                    inside(d.at(), text.len());
                }
            }
            Err((offset, _)) => assert!(offset <= text.len()),
        }
    }
    if let Ok(node) = json::parse(text) {
        let _ = lldp::parse(&node);
        let _ = host::netdevs(&node);
        for script in std::iter::once(SCRIPT).chain(DCBNL_SCRIPTS.iter().copied()) {
            if let Some(intent) = host::intent(script) {
                let (expected, actual) = host::canons(&intent, &node);
                for d in canon::compare(canon::Form::Host, &expected, &actual, &|_| false) {
                    inside(d.at(), text.len());
                }
            }
        }
    }
});
