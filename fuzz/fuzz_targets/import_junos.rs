//! bytes as a Junos `show configuration` (curly or `| display set`) → `verify`'s reader
//! (`verify::junos::canon`) → import's reader (`import::junos`), in memory. Nothing may panic;
//! every place a finding or a value points at lies inside the input, on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = fabricc::import::junos::stated_fill_base(text);
    let Ok(c) = fabricc::verify::junos::canon(text) else {
        return;
    };
    let mut notes = Vec::new();
    let sw = fabricc::import::junos::read(text, &c, 0, &mut notes);
    let inside = |start: u32, end: u32| {
        let (s, e) = (start as usize, end as usize);
        assert!(s <= e && e <= text.len(), "{s}..{e} of {}", text.len());
        assert!(text.is_char_boundary(s) && text.is_char_boundary(e));
    };
    for n in &notes {
        inside(n.at.at.start, n.at.at.end);
    }
    for p in sw.ports.values() {
        inside(p.at.at.start, p.at.at.end);
        for (w, e) in p.wred.values() {
            inside(e.at.start, e.at.end);
            assert!(w.min <= w.max, "{w:?}");
        }
        for e in p.dscp_at.values() {
            inside(e.at.start, e.at.end);
        }
        if let Some((set, _)) = &p.pfc {
            assert!(set.iter().all(|&x| x < 8));
        }
    }
});
