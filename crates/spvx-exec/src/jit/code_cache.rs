//! The JIT's code cache on disk: the machine code of every function the JIT compiled, kept in a
//! directory so that another process compiling the same function takes it from there instead of
//! running Cranelift's optimizer and register allocator again (the larger part of a short
//! `spvx run`: 5–8 ms for the VALVE fp16 reduction, whose dispatch takes 0.6 ms).
//!
//! Off unless a process turns it on ([`set_dir`]; the `spvx` command does, see its README
//! section). Entries are found by Cranelift's incremental-cache key: a SHA-256 of the function's
//! IR, the target ISA and its flags, with Cranelift's version checked again when an entry is
//! read. The generated code holds no address of the process: static tables and spvx-num's
//! functions are read from the context (`runtime::StaticTables`). A function that held one
//! would have a key of its own in every process: compiled each time, never reused wrongly.
//!
//! Each entry file is `MAGIC`, a 64-bit FxHash of the payload and the payload (Cranelift's
//! serialized code). An entry that is short, has another magic or whose hash does not match is
//! removed and the function compiled afresh: a damaged file costs a compile, never wrong code.
//! Writes go to a temporary file renamed into place, so processes sharing the directory see
//! whole entries only. When the directory holds more than [`MAX_ENTRIES`] entries, the older
//! half (by modification time) is removed. The cache is best-effort: a directory that cannot be
//! created, read or written leaves compilation as it was without it.

use cranelift_codegen::Context;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::incremental_cache::CacheKvStore;
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module, ModuleError, ModuleReloc};
use std::borrow::Cow;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The first bytes of every entry file (the layout's version: a change to it changes them).
const MAGIC: &[u8; 8] = b"spvxjit1";

/// The most entries the directory keeps before the older half is removed.
pub const MAX_ENTRIES: usize = 4096;

/// The directory in use, if any.
static DIR: RwLock<Option<PathBuf>> = RwLock::new(None);

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

/// Turns the cache on with `dir` (created when first written), or off with `None`, for the
/// rest of the process.
pub fn set_dir(dir: Option<PathBuf>) {
    if let Ok(mut d) = DIR.write() {
        *d = dir;
    }
}

/// The directory the environment chooses: `SPVX_JIT_CACHE` when set (`off` or empty: none),
/// else `$XDG_CACHE_HOME/spvx/jit`, else `$HOME/.cache/spvx/jit`, else none.
pub fn dir_from_env() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(v) = std::env::var_os("SPVX_JIT_CACHE") {
        return (!v.is_empty() && v != "off").then(|| PathBuf::from(v));
    }
    var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| Path::new(&h).join(".cache")))
        .map(|c| c.join("spvx").join("jit"))
}

/// The directory in use, if the cache is on.
pub fn dir() -> Option<PathBuf> {
    DIR.read().ok().and_then(|d| d.clone())
}

/// How many functions this process took from the cache, and how many it compiled with the
/// cache on (each then stored).
pub fn counts() -> (u64, u64) {
    (HITS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

/// Defines the function built in `ctx` as `id` in `module`: from the cache when it holds the
/// function, else compiled (and stored when the cache is on). A context that wants its
/// disassembly (`jit_dump`) is always compiled. Errors are Cranelift's, as text.
pub(super) fn define(module: &mut JITModule, id: FuncId, ctx: &mut Context) -> Result<(), String> {
    let text = |e: ModuleError| e.to_string();
    let dir = match dir() {
        Some(dir) if !ctx.want_disasm => dir,
        _ => return module.define_function(id, ctx).map_err(text),
    };
    let mut store = DiskStore { dir: &dir };
    let (_, hit) = ctx
        .compile_with_cache(module.isa(), &mut store, &mut ControlPlane::default())
        .map_err(|e| text(ModuleError::Compilation(e.inner)))?;
    let counter = if hit { &HITS } else { &MISSES };
    counter.fetch_add(1, Ordering::Relaxed);
    let Some(code) = ctx.compiled_code() else {
        return module.define_function(id, ctx).map_err(text);
    };
    let relocs: Vec<ModuleReloc> = code
        .buffer
        .relocs()
        .iter()
        .map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id))
        .collect();
    let alignment = u64::from(code.buffer.alignment);
    module
        .define_function_bytes(id, alignment, code.code_buffer(), &relocs)
        .map_err(text)
}

/// Entries as files of one directory, named by their key in hexadecimal.
struct DiskStore<'a> {
    dir: &'a Path,
}

impl DiskStore<'_> {
    fn path(&self, key: &[u8]) -> PathBuf {
        let name: String = key.iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join(name)
    }
}

fn checksum(payload: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(payload);
    h.write_usize(payload.len());
    h.finish()
}

/// The payload of an entry file's bytes, if they are a whole, undamaged entry.
fn payload(file: &[u8]) -> Option<&[u8]> {
    let rest = file.strip_prefix(MAGIC)?;
    let (sum, payload) = rest.split_first_chunk::<8>()?;
    (u64::from_le_bytes(*sum) == checksum(payload)).then_some(payload)
}

impl CacheKvStore for DiskStore<'_> {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let path = self.path(key);
        let mut file = std::fs::read(&path).ok()?;
        if payload(&file).is_none() {
            let _ = std::fs::remove_file(&path);
            return None;
        }
        file.drain(..MAGIC.len() + 8);
        Some(Cow::Owned(file))
    }

    fn insert(&mut self, key: &[u8], val: Vec<u8>) {
        if std::fs::create_dir_all(self.dir).is_err() {
            return;
        }
        let mut file = Vec::with_capacity(16 + val.len());
        file.extend_from_slice(MAGIC);
        file.extend_from_slice(&checksum(&val).to_le_bytes());
        file.extend_from_slice(&val);
        let path = self.path(key);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, &file).is_err() || std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
            return;
        }
        prune(self.dir);
    }
}

/// Removes the older half of the entries when there are more than [`MAX_ENTRIES`].
fn prune(dir: &Path) {
    let count = std::fs::read_dir(dir).map_or(0, |entries| entries.count());
    if count <= MAX_ENTRIES {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort();
    for (_, path) in &files[..files.len() / 2] {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_and_damage_is_refused() {
        let dir = std::env::temp_dir().join(format!("spvx-code-cache-unit-{}", std::process::id()));
        let mut store = DiskStore { dir: &dir };
        let key = [0xabu8, 0x01, 0xff];
        assert!(store.get(&key).is_none());
        store.insert(&key, b"machine code".to_vec());
        assert_eq!(store.path(&key), dir.join("ab01ff"));
        assert_eq!(store.get(&key).as_deref(), Some(&b"machine code"[..]));
        // One byte of the payload changed: refused, and the file removed.
        let mut file = std::fs::read(store.path(&key)).unwrap();
        *file.last_mut().unwrap() ^= 1;
        std::fs::write(store.path(&key), &file).unwrap();
        assert!(store.get(&key).is_none());
        assert!(!store.path(&key).exists());
        // Truncated, and another layout's magic: refused.
        store.insert(&key, b"machine code".to_vec());
        let file = std::fs::read(store.path(&key)).unwrap();
        std::fs::write(store.path(&key), &file[..12]).unwrap();
        assert!(store.get(&key).is_none());
        let mut other = file.clone();
        other[7] = b'2';
        std::fs::write(store.path(&key), &other).unwrap();
        assert!(store.get(&key).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_older_half_goes_past_the_limit() {
        let dir =
            std::env::temp_dir().join(format!("spvx-code-cache-prune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        for i in 0..=MAX_ENTRIES {
            let path = dir.join(format!("{i:04x}"));
            std::fs::write(&path, b"x").unwrap();
            if i < 10 {
                let f = std::fs::File::options().write(true).open(&path).unwrap();
                f.set_modified(old).unwrap();
            }
        }
        prune(&dir);
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), (MAX_ENTRIES + 1).div_ceil(2));
        for i in 0..10 {
            assert!(
                !dir.join(format!("{i:04x}")).exists(),
                "entry {i} is among the oldest"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
