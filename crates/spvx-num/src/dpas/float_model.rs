//! The accumulation models of float DPAS. No public source defines the bit-exact behaviour of
//! XMX float DPAS; the default is the model shared by Intel's reference emulators (CM host
//! emulator, ESIMD host emulator, OpenCL emulation functions), and every other behaviour found
//! in `reference/dpas.md` is a named switch.

/// How the products and the accumulator are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Accumulation {
    /// One fp32 round-to-nearest-even addition per product, in the order given by [`Order`]
    /// (dpas.md §2.2 "emulator" model).
    #[default]
    Sequential,
    /// The exact sum of the accumulator and all exact products, rounded once to fp32 (RNE).
    /// [`ProductRounding`] and [`Order`] have no effect.
    Exact,
}

/// How each product is formed in [`Accumulation::Sequential`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ProductRounding {
    /// The product is computed in fp32 (RNE), then added: `acc = rne32(acc + rne32(a·b))`, as
    /// the emulators' host `float` arithmetic does. The product is exact except when a
    /// bf16/tf32 product leaves the fp32 range (then ±inf or a rounded subnormal/zero).
    #[default]
    Fp32,
    /// Fused: `acc = rne32(acc + a·b)` with the exact product (one rounding per product).
    Fused,
    /// As `Fp32`, but products of two fp16 elements are rounded to fp16 first (RNE): the ESIMD
    /// host emulator's `sycl::half` multiplication. Other precisions behave as `Fp32`.
    Fp16ForHf,
}

/// How the 32-bit container of a tf32 element is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tf32Inputs {
    /// Only the 1-8-10 bits are used; the low 13 mantissa bits are ignored (truncation), as the
    /// hardware does (OpenCL tf32 extension: "Only 10 mantissa bits are used").
    #[default]
    Truncate,
    /// The whole container is read as fp32, as the CM host emulator does.
    Full,
}

/// Which denormal values are replaced by zero of the same sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DenormalMode {
    /// Denormals are kept (the emulators' host behaviour; Xe2+ with CR0 bit 30 set, IGC's
    /// OpenCL default).
    #[default]
    Keep,
    /// Flushed in bf16 and tf32 DPAS only (Xe2+ with CR0 bit 30 "BF/TF denorm mode" clear,
    /// `-bf-tf-denorms-are-zero`; a guess for pre-Xe2 parts).
    FlushBfTf,
    /// Flushed in every float DPAS.
    FlushAll,
}

/// The order in which products are added in [`Accumulation::Sequential`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// Start from the accumulator (Src0) and add the products in increasing k (the emulators).
    #[default]
    IncreasingK,
    /// Mesa's ALU lowering: start from +0, add every channel's subword-0 product (depth 0, 1,
    /// …), then every subword-1 product, and so on, and add the accumulator last. The element
    /// count must be a multiple of OPS_PER_CHAN.
    SubwordMajorAccLast,
}

/// How each stage of a df (fp64) DPAS combines its product with the accumulator in
/// [`Accumulation::Sequential`]. DPAS.md names one rounded value per stage ("the output of each
/// stage is a dword … or df which is the accumulated input to the next systolic stage") and
/// nothing about the product; spvx's default rounds only that output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DfProduct {
    /// `acc = rne64(acc + a·b)` with the exact product: one rounding per stage (an IEEE fma).
    #[default]
    Fused,
    /// `acc = rne64(acc + rne64(a·b))`: the product rounded to fp64 first, as host `double`
    /// arithmetic without contraction would do.
    Rounded,
}

/// A float DPAS accumulation model: every switch with its default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FloatModel {
    /// Sequential rounding or one exact rounding.
    pub accumulation: Accumulation,
    /// Product formation in the sequential model.
    pub product: ProductRounding,
    /// Reading of tf32 containers.
    pub tf32_inputs: Tf32Inputs,
    /// Denormal flushing of the inputs (elements and the Src0 accumulator).
    pub input_denormals: DenormalMode,
    /// Denormal flushing of each rounded accumulator value.
    pub output_denormals: DenormalMode,
    /// Order of the additions in the sequential model.
    pub order: Order,
    /// Product formation of df DPAS in the sequential model ([`ProductRounding`] is for the
    /// fp32-accumulator precisions).
    pub df_product: DfProduct,
}

impl FloatModel {
    /// The default: Intel's reference emulators (sequential fp32 RNE, increasing k,
    /// accumulator first, denormals kept, tf32 low bits ignored).
    pub const EMULATOR: FloatModel = FloatModel {
        accumulation: Accumulation::Sequential,
        product: ProductRounding::Fp32,
        tf32_inputs: Tf32Inputs::Truncate,
        input_denormals: DenormalMode::Keep,
        output_denormals: DenormalMode::Keep,
        order: Order::IncreasingK,
        df_product: DfProduct::Fused,
    };

    /// Names accepted by [`FloatModel::named`].
    pub const NAMES: [&'static str; 7] = [
        "emulator",
        "exact",
        "esimd",
        "cm",
        "mesa",
        "bf-tf-ftz",
        "df-rounded",
    ];

    /// A preset by name: `emulator` (default), `exact` (one rounding), `esimd` (fp16 products
    /// rounded to fp16), `cm` (tf32 containers read whole), `mesa` (subword-major order,
    /// accumulator last), `bf-tf-ftz` (bf16/tf32 denormals flushed on input and output),
    /// `df-rounded` (df products rounded to fp64 before each addition).
    pub fn named(name: &str) -> Option<FloatModel> {
        let base = FloatModel::EMULATOR;
        Some(match name {
            "emulator" => base,
            "exact" => FloatModel {
                accumulation: Accumulation::Exact,
                ..base
            },
            "esimd" => FloatModel {
                product: ProductRounding::Fp16ForHf,
                ..base
            },
            "cm" => FloatModel {
                tf32_inputs: Tf32Inputs::Full,
                ..base
            },
            "mesa" => FloatModel {
                order: Order::SubwordMajorAccLast,
                ..base
            },
            "bf-tf-ftz" => FloatModel {
                input_denormals: DenormalMode::FlushBfTf,
                output_denormals: DenormalMode::FlushBfTf,
                ..base
            },
            "df-rounded" => FloatModel {
                df_product: DfProduct::Rounded,
                ..base
            },
            _ => return None,
        })
    }
}
