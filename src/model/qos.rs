//! The QoS plan as one device sees it: a class with the device's overrides applied, and the
//! DSCP → class table that follows from it. Analyses and renderers ask these functions, so
//! "what does switch X do with class C" has exactly one answer.

use super::{
    Bytes, Class, ClassId, ClassOverride, Congestion, Dscp, Ecn, Fabric, HostId, Scheduling,
    Sourced, SwitchId,
};

/// A class with one device's overrides applied; every value keeps the span that set it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassView {
    pub id: ClassId,
    pub dscp: Option<Sourced<Dscp>>,
    pub priority: Sourced<u8>,
    pub lossless: Sourced<bool>,
    pub congestion: Sourced<Congestion>,
    pub ecn: Ecn,
    pub scheduling: Sourced<Scheduling>,
    pub pfc_threshold: Option<Sourced<Bytes>>,
    pub headroom: Option<Sourced<Bytes>>,
    /// The switch traffic class: `traffic-class`, else the priority (as this device has it).
    pub tc: Sourced<u8>,
    /// The switch egress queue: `queue`, else the traffic class. Scheduling, ECN marking and
    /// rate caps act on the queue; PFC, headroom and the deadlock proof on the priority.
    pub queue: Sourced<u8>,
    /// Egress rate cap, thousandths of a percent of the port speed.
    pub rate: Option<Sourced<u64>>,
    /// Per-speed ECN thresholds in force on this device, sorted by speed: the device's own
    /// `ecn SPEED …`; the class's, unless the device sets class-wide ECN thresholds itself.
    pub ecn_speeds: Vec<crate::model::EcnAtSpeed>,
    /// What one queue of this class may hold on the device, where an ECN fill level is in
    /// force on it (`Switch::fill_base`): the base `ecn_at` / `ecn_on` turn fill levels into
    /// bytes with. `None` on hosts and where the base is unknown.
    pub fill_base: Option<u64>,
}

impl ClassView {
    fn new(id: ClassId, class: &Class, o: Option<&ClassOverride>) -> Self {
        let mut v = ClassView {
            id,
            dscp: class.dscp.clone(),
            priority: class.priority,
            lossless: class.lossless,
            congestion: class.congestion,
            ecn: class.ecn,
            scheduling: class.scheduling,
            pfc_threshold: class.pfc_threshold,
            headroom: None,
            tc: Sourced::default_at(class.priority.value, class.priority.span),
            queue: Sourced::default_at(class.priority.value, class.priority.span),
            rate: class.rate,
            ecn_speeds: class.ecn_speeds.clone(),
            fill_base: None,
        };
        if let Some(o) = o {
            if let Some(d) = &o.dscp {
                v.dscp = Some(d.clone());
            }
            set(&mut v.priority, o.priority);
            set(&mut v.lossless, o.lossless);
            set(&mut v.congestion, o.congestion);
            set(&mut v.ecn.enabled, o.ecn_enabled);
            if o.ecn_min.is_some() {
                v.ecn.min_fill = o.ecn_min_fill;
            }
            if o.ecn_max.is_some() {
                v.ecn.max_fill = o.ecn_max_fill;
            }
            set(&mut v.ecn.min, o.ecn_min);
            set(&mut v.ecn.max, o.ecn_max);
            set(&mut v.ecn.probability, o.ecn_probability);
            set(&mut v.scheduling, o.scheduling);
            if o.pfc_threshold.is_some() {
                v.pfc_threshold = o.pfc_threshold;
            }
            v.headroom = o.headroom;
            // A device's own thresholds beat the fabric's per-speed ones.
            if o.ecn_min.is_some() || o.ecn_max.is_some() || o.ecn_probability.is_some() {
                v.ecn_speeds.clear();
            }
            for e in &o.ecn_speeds {
                v.ecn_speeds.retain(|x| x.speed != e.speed);
                v.ecn_speeds.push(*e);
            }
            v.ecn_speeds.sort_by_key(|e| e.speed);
        }
        v.tc = class
            .traffic_class
            .unwrap_or(Sourced::default_at(v.priority.value, v.priority.span));
        v.queue = class
            .queue
            .unwrap_or(Sourced::default_at(v.tc.value, v.tc.span));
        v
    }

    /// The ECN thresholds of this class's queue on a port of `speed_mbps`: the `ecn SPEED`
    /// entry for that speed where there is one, its unset parameters from the class.
    pub fn ecn_at(&self, speed_mbps: u64) -> Ecn {
        match self.ecn_speeds.iter().find(|x| x.speed.get() == speed_mbps) {
            Some(at) => at.over(self.ecn),
            None => self.ecn,
        }
    }

    /// The ECN thresholds of this class's queue on a switch port of `link`: the link's own
    /// `ecn CLASS …`, over [`ClassView::ecn_at`] its speed.
    pub fn ecn_on(&self, link: &super::Link) -> Ecn {
        let e = self.ecn_at(link.speed.get());
        match link.ecn.iter().find(|(c, _)| *c == self.id) {
            Some((_, at)) => at.over(e).resolved(self.fill_base),
            None => e,
        }
    }

    /// This view with its fill levels as bytes of a queue of `base` bytes.
    fn with_fill_base(mut self, base: Option<u64>) -> Self {
        self.fill_base = base;
        self.ecn = self.ecn.resolved(base);
        for e in &mut self.ecn_speeds {
            *e = e.resolved(base);
        }
        self
    }

    /// ECN marking applies: the class runs DCQCN and marking is not turned off.
    pub fn marks_ecn(&self) -> bool {
        self.congestion.value == Congestion::Dcqcn && self.ecn.enabled.value
    }
}

fn set<T: Copy>(slot: &mut Sourced<T>, value: Option<Sourced<T>>) {
    if let Some(v) = value {
        *slot = v;
    }
}

impl Fabric {
    /// Class `c` as switch `s` treats it.
    pub fn switch_class(&self, s: SwitchId, c: ClassId) -> ClassView {
        let sw = self.switch(s);
        let v = ClassView::new(c, self.class(c), sw.class_overrides.get(c.index()));
        let base = sw.fill_base.map(|b| {
            if v.lossless.value {
                b.lossless
            } else {
                b.lossy
            }
        });
        v.with_fill_base(base)
    }

    /// Class `c` as host `h` marks and pauses it.
    pub fn host_class(&self, h: HostId, c: ClassId) -> ClassView {
        let host = self.host(h);
        let mut v = ClassView::new(c, self.class(c), host.class_overrides.get(c.index()));
        if let Some(span) = host.ecn_off {
            v.ecn.enabled = Sourced::set(false, span);
        }
        v
    }

    /// Every class as switch `s` treats it, in class order.
    pub fn switch_classes(&self, s: SwitchId) -> Vec<ClassView> {
        self.class_ids().map(|c| self.switch_class(s, c)).collect()
    }

    /// Every class as host `h` treats it, in class order.
    pub fn host_classes(&self, h: HostId) -> Vec<ClassView> {
        self.class_ids().map(|c| self.host_class(h, c)).collect()
    }

    /// Whether PFC runs on host `h`'s NICs.
    pub fn host_pfc(&self, h: HostId) -> bool {
        self.host(h).pfc.is_none_or(|p| p.value)
    }
}

/// DSCP value → the class that claims it on a device (explicit values first, then the
/// `dscp other` class for the rest).
pub fn dscp_table(views: &[ClassView]) -> [Option<ClassId>; 64] {
    let mut table = [None; 64];
    for v in views {
        if let Some(Sourced {
            value: Dscp::Values(values),
            ..
        }) = &v.dscp
        {
            for &d in values {
                if let Some(slot) = table.get_mut(d as usize) {
                    slot.get_or_insert(v.id);
                }
            }
        }
    }
    if let Some(other) = views.iter().find(|v| {
        matches!(
            v.dscp,
            Some(Sourced {
                value: Dscp::Other,
                ..
            })
        )
    }) {
        for slot in &mut table {
            slot.get_or_insert(other.id);
        }
    }
    table
}

/// The classes a host's RDMA traffic can be given a ToS for, in the order a host script
/// picks its one default: lossless classes first, then the other DCQCN ones, each in class
/// order; only classes with DSCP values (a `dscp other` class has no one DSCP to mark with),
/// each with its first DSCP.
pub fn roce_classes(views: &[ClassView]) -> Vec<(&ClassView, u8)> {
    let first = |v: &ClassView| match &v.dscp {
        Some(Sourced {
            value: Dscp::Values(values),
            ..
        }) => values.first().copied(),
        _ => None,
    };
    views
        .iter()
        .filter(|v| v.lossless.value)
        .chain(
            views
                .iter()
                .filter(|v| !v.lossless.value && v.congestion.value == Congestion::Dcqcn),
        )
        .filter_map(|v| first(v).map(|d| (v, d)))
        .collect()
}
