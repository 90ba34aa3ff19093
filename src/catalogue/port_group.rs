//! A switch model's `ports N x SPEED [breakout W x SPEED]`: what the model declares and the
//! catalogue fits to a platform's cages (`Platform::fit`, `Platform::place`). It is defined
//! here, below both, so the catalogue need not import the model that resolves against it.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortGroup {
    /// Ports (sub-ports when broken out).
    pub count: u32,
    /// Mb/s (of one sub-port when broken out).
    pub speed: u64,
    /// `ports 64 x 800G breakout 2 x 400G`: the cages and how each is split; `count` is
    /// cages × ways. `None`: the ports take the platform's cages as `Platform::place` says.
    pub breakout: Option<CageBreakout>,
}

/// How the cages of a port group are broken out (issue 18 item 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CageBreakout {
    /// Sub-ports per cage.
    pub ways: u32,
    /// The cage's own speed, Mb/s.
    pub cage_speed: u64,
}

impl PortGroup {
    /// A group of unbroken ports.
    pub const fn plain(count: u32, speed: u64) -> PortGroup {
        PortGroup {
            count,
            speed,
            breakout: None,
        }
    }
}
