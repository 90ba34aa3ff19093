use std::process::ExitCode;

// A 98k-GPU build allocates and frees tens of millions of small strings and maps on rayon's
// threads: glibc's malloc spent about a quarter of the build's CPU time in its own
// bookkeeping (issue 36). mimalloc (microsoft/mimalloc: free lists per thread and page) takes
// a fifth off the whole build's CPU time; README's benchmark section has the figures.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    fabricc::run().into()
}
