//! The steps of a wave, per target: how a device is drained, changed, checked and returned to
//! service, and how the change is undone. The commands are those of the build's own deploy
//! procedures (README, "Deploying the switch files" and "Deploy a host").

use crate::render::SwitchOs;

use super::disruption::Target;

/// How the files of a step are applied on `target` (`dir` = the step's folder in the plan).
pub fn apply(target: Target, device: &str, dir: &str) -> String {
    match target {
        Target::Switch(SwitchOs::Sonic) => format!(
            "copy {dir}/switches/{device}/ and {dir}/programs/sonic/ to the switch; `sudo ./sonic/apply.sh --dry-run {device}` (says live patch or reload, and why), then `sudo ./sonic/apply.sh --yes {device}` (checkpoint, patch, health gate; exit 4 = not saved)"
        ),
        Target::Switch(SwitchOs::Cumulus) => format!(
            "copy {dir}/switches/{device}/ and {dir}/programs/cumulus/ to the switch; `sudo ./cumulus/nvue.sh --dry-run {device}`, then `sudo ./cumulus/nvue.sh {device}` (one NVUE revision; a failure detaches it)"
        ),
        Target::Switch(SwitchOs::Eos) => format!(
            "`configure session fabricc-qos`, paste {dir}/switches/{device}/qos.cfg, `show session-config diffs`, `commit timer 00:10:00`; after the gate `configure session fabricc-qos commit` and `copy running-config startup-config` (ports.cfg too if the step lists port changes)"
        ),
        Target::Switch(SwitchOs::Nxos) => format!(
            "`checkpoint fabricc-before-qos`, `configure session fabricc-qos`, paste {dir}/switches/{device}/qos.cfg, `verify`, `commit`; after the gate `copy running-config startup-config`"
        ),
        Target::Switch(SwitchOs::Junos) => format!(
            "copy {dir}/switches/{device}/qos.conf to /var/tmp/; `configure exclusive`, `load replace /var/tmp/qos.conf`, `show | compare`, `commit check`, `commit confirmed 10`; after the gate `commit`"
        ),
        Target::Switch(SwitchOs::Vrp) => format!(
            "`system-view`, paste {dir}/switches/{device}/qos.cfg, `display configuration candidate changes`, `commit trial 600 label fabricc-qos`; after the gate `commit`, `return`, `save`"
        ),
        Target::Switch(SwitchOs::Comware) => format!(
            "`save flash:/fabricc-before-qos.cfg`; `system-view`, paste {dir}/switches/{device}/qos.cfg below its header, `return`; after the gate `save force`"
        ),
        Target::Host(_) => format!(
            "install {dir}/hosts/{device}/ (settings in /etc/fabricc/) and the program of the build's programs/host/ as /usr/local/sbin/fabricc-roce; `fabricc-roce --dry-run`, then `fabricc-roce` (exit 4 = RDMA still busy: nothing changed)"
        ),
    }
}

/// How a device taken out of service is checked before it carries traffic again.
pub fn gate(target: Target, device: &str) -> String {
    match target {
        Target::Switch(SwitchOs::Sonic) => format!(
            "apply.sh's own health gate (fabric ports up, BGP sessions Established, PGs in APPL_DB), then `fabricc verify` with {device}'s collected state: no FAB97x"
        ),
        Target::Host(_) => format!(
            "`fabricc-roce --check` exits 0 on {device}; `fabricc verify` with its `--collect` state: no FAB97x"
        ),
        Target::Switch(_) => format!(
            "fabric ports up, BGP sessions Established, `fabricc verify` with {device}'s collected state: no FAB97x"
        ),
    }
}

/// How a device's change is undone: the target's own rollback, or the previous step's files.
pub fn rollback(target: Target) -> &'static str {
    match target {
        Target::Switch(SwitchOs::Sonic) => {
            "apply.sh rolls back to its checkpoint itself on a failed patch; later, `sudo config rollback <checkpoint>` or apply the previous step's folder"
        }
        Target::Switch(SwitchOs::Cumulus) => {
            "`nv config apply <previous revision>` (`nv config history`), or `cumulus/nvue.sh` with the previous step's folder"
        }
        Target::Switch(SwitchOs::Eos) => {
            "let the commit timer lapse (EOS rolls the session back), or apply the previous step's qos.cfg the same way"
        }
        Target::Switch(SwitchOs::Nxos) => {
            "`rollback running-config checkpoint fabricc-before-qos atomic`"
        }
        Target::Switch(SwitchOs::Junos) => {
            "do not confirm (`commit confirmed` rolls back after 10 minutes), or `rollback 1` and `commit`"
        }
        Target::Switch(SwitchOs::Vrp) => {
            "do not confirm (`commit trial` rolls back after 600 s), or `rollback configuration last 1`"
        }
        Target::Switch(SwitchOs::Comware) => {
            "`configuration replace file flash:/fabricc-before-qos.cfg`, or paste the previous step's qos.cfg the same way"
        }
        Target::Host(_) => "run fabricc-roce with the previous step's settings file",
    }
}

/// How a device is taken out of service.
pub fn drain(target: Target) -> &'static str {
    match target {
        Target::Switch(_) => {
            "move traffic off the switch (BGP graceful shutdown or the OS's maintenance mode) and wait until its fabric ports carry no RoCE traffic; for a leaf, first stop or move the jobs of the hosts behind it"
        }
        Target::Host(_) => {
            "cordon the node in the scheduler and wait until its jobs have ended (no RDMA queue pairs: the program's busy guard checks it)"
        }
    }
}
