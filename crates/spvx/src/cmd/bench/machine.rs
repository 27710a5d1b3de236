//! A one-line description of the machine for the table's header: architecture, logical CPUs
//! and the CPU model (from /proc/cpuinfo where there is one).

/// E.g. "x86_64, 2 logical CPUs, Intel(R) Xeon(R) ...".
pub fn describe() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!("{}, {cpus} logical CPUs, {model}", std::env::consts::ARCH)
}
