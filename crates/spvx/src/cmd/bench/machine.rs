//! A one-line description of the machine for the table's header: architecture, logical CPUs,
//! the CPU model (from /proc/cpuinfo where there is one) and the load average when the run
//! started (from /proc/loadavg), since other work on the machine moves the times.

/// E.g. "x86_64, 2 logical CPUs, Intel(R) Xeon(R) ..., load average 1.52 at the start".
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
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().map(str::to_string))
        .map_or_else(String::new, |l| {
            format!(", load average {l} at the start (1 minute)")
        });
    format!(
        "{}, {cpus} logical CPUs, {model}{load}",
        std::env::consts::ARCH
    )
}
