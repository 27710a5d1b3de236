//! The validator's size and depth limits on the command line (`spvx val`, `spvx run`): the
//! options spirv-val 2025.5 has for the same limits, under the same names, and spvx's own call
//! depth. Each option replaces one field of `spvx_val::Limits`; the others keep their defaults
//! (SPIR-V §2.17's universal limits).

use spvx_val::Limits;

/// Options that change the validator's limits (a module over one fails validation with an
/// error naming the limit).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(next_help_heading = "Validator limits (default: SPIR-V §2.17 universal limits)")]
pub struct LimitArgs {
    /// Largest id bound (default 4194303).
    #[arg(long, value_name = "N")]
    pub max_id_bound: Option<u32>,
    /// Most members of one structure (default 16383).
    #[arg(long, value_name = "N")]
    pub max_struct_members: Option<u32>,
    /// Deepest structure nesting (default 255).
    #[arg(long, value_name = "N")]
    pub max_struct_depth: Option<u32>,
    /// Deepest control-flow nesting in a function (default 1023).
    #[arg(long, value_name = "N")]
    pub max_control_flow_nesting_depth: Option<u32>,
    /// Most (literal, label) pairs of one OpSwitch (default 16383).
    #[arg(long, value_name = "N")]
    pub max_switch_branches: Option<u32>,
    /// Most parameters of a function, arguments of a call (default 255).
    #[arg(long, value_name = "N")]
    pub max_function_args: Option<u32>,
    /// Most indexes of one access chain or composite extract/insert (default 255).
    #[arg(long, value_name = "N")]
    pub max_access_chain_indexes: Option<u32>,
    /// Most Function variables of one function (default 524287).
    #[arg(long, value_name = "N")]
    pub max_local_variables: Option<u32>,
    /// Most module-scope variables (default 65535).
    #[arg(long, value_name = "N")]
    pub max_global_variables: Option<u32>,
    /// Longest static chain of calls from an entry point (spvx's own limit; default 1023).
    #[arg(long, value_name = "N")]
    pub max_call_depth: Option<u32>,
}

impl LimitArgs {
    /// The default limits with the given options applied.
    pub fn limits(&self) -> Limits {
        let mut l = Limits::default();
        for (given, field) in [
            (self.max_id_bound, &mut l.max_id_bound),
            (self.max_struct_members, &mut l.max_struct_members),
            (self.max_struct_depth, &mut l.max_struct_depth),
            (
                self.max_control_flow_nesting_depth,
                &mut l.max_control_flow_nesting_depth,
            ),
            (self.max_switch_branches, &mut l.max_switch_branches),
            (self.max_function_args, &mut l.max_function_args),
            (
                self.max_access_chain_indexes,
                &mut l.max_access_chain_indexes,
            ),
            (self.max_local_variables, &mut l.max_local_variables),
            (self.max_global_variables, &mut l.max_global_variables),
            (self.max_call_depth, &mut l.max_call_depth),
        ] {
            if let Some(v) = given {
                *field = v;
            }
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Args;

    /// The "(default N)" of every option's help is `Limits::default()`'s value, and no option
    /// changes anything when not given.
    #[test]
    fn help_gives_the_real_defaults() {
        assert_eq!(LimitArgs::default().limits(), Limits::default());
        let cmd = LimitArgs::augment_args(clap::Command::new("t"));
        let mut checked = 0;
        for arg in cmd.get_arguments() {
            let name = arg.get_long().unwrap_or_default();
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            let Some(default) = help
                .rsplit_once("default ")
                .and_then(|(_, d)| d.trim_end_matches(['.', ')']).parse::<u32>().ok())
            else {
                panic!("--{name}: no default in '{help}'");
            };
            // Setting the option to its documented default changes nothing.
            let args = LimitArgs::augment_args(clap::Command::new("t"))
                .try_get_matches_from(["t", &format!("--{name}"), &default.to_string()])
                .unwrap_or_else(|e| panic!("--{name}: {e}"));
            let parsed = <LimitArgs as clap::FromArgMatches>::from_arg_matches(&args)
                .unwrap_or_else(|e| panic!("--{name}: {e}"));
            assert_eq!(parsed.limits(), Limits::default(), "--{name}");
            // And another value changes something.
            let args = LimitArgs::augment_args(clap::Command::new("t"))
                .try_get_matches_from(["t", &format!("--{name}"), "7"])
                .unwrap_or_else(|e| panic!("--{name}: {e}"));
            let parsed = <LimitArgs as clap::FromArgMatches>::from_arg_matches(&args)
                .unwrap_or_else(|e| panic!("--{name}: {e}"));
            assert_ne!(parsed.limits(), Limits::default(), "--{name}");
            checked += 1;
        }
        assert_eq!(checked, 10);
    }
}
