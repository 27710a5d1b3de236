//! The table 2^(j/64), j = 0…63, in Q124 (rounded to nearest: |T_j − 2^(j/64)·2^124| ≤ ½), for
//! the exponential of the 116-bit step ([`super::wide`]): e^x = 2^q · 2^(j/64) · e^r with
//! |r| ≤ ln2/128. The test checks every entry exactly in integers:
//! (2T − 1)^64 ≤ 2^(125·64 + j) ≤ (2T + 1)^64.

/// 2^(j/64) · 2^124, rounded to nearest.
pub(crate) const EXP2_64THS: [u128; 64] = [
    0x1000_0000_0000_0000_0000_0000_0000_0000,
    0x102c_9a3e_7780_60ee_6f7c_aca4_f7a2_9bdf,
    0x1059_b0d3_1585_743a_e7c5_48eb_68ca_4180,
    0x1087_4518_759b_c808_c35f_25d9_427f_a2b0,
    0x10b5_586c_f989_0f62_98b9_2b71_842a_9836,
    0x10e3_ec32_d3d1_a202_0742_e4f8_af6a_552b,
    0x1113_01d0_125b_50a4_ebbf_1aed_9318_ceac,
    0x1142_9aae_a92d_dfb3_4101_943b_2586_d018,
    0x1172_b83c_7d51_7adc_df7c_8c50_eb14_a792,
    0x11a3_5beb_6fcb_753c_b698_f692_d1c8_35a7,
    0x11d4_8731_68b9_aa78_05b8_0289_90f0_7a99,
    0x1206_3b88_628c_d63b_8eeb_0295_0929_d0fc,
    0x1238_7a6e_7562_3866_c1fa_db1c_15cb_593b,
    0x126b_4565_e27c_dd25_7a67_3281_d3b2_49dd,
    0x129e_9df5_1fde_e12c_25d1_5f5a_24aa_3bcb,
    0x12d2_85a6_e403_0b40_091d_536d_0753_8459,
    0x1306_fe0a_31b7_152d_e8d5_a463_05c8_5edf,
    0x133c_08b2_6416_ff4c_9c86_10d9_6696_bf96,
    0x1371_a737_3aa9_caa7_1455_02f4_5479_87e4,
    0x13a7_db34_e59f_f6ea_1bc9_299e_0a1d_3361,
    0x13de_a64c_1234_2235_b412_23e1_3d77_3fba,
    0x1416_0a21_f72e_29f8_4325_b8f3_db61_fb35,
    0x144e_0860_6189_2d03_136f_409d_f019_fbd5,
    0x1486_a2b5_c13c_d013_c1a3_b690_62f0_3c3e,
    0x14bf_dad5_362a_271d_4397_afec_42e2_0e03,
    0x14f9_b276_9d2c_a6ad_33d8_b69a_a073_ee56,
    0x1534_2b56_9d4f_81df_0a83_c49d_86a6_3f4e,
    0x156f_4736_b527_da66_ecb0_0476_4eb3_c00f,
    0x15ab_07dd_4854_2958_c930_1519_1eb3_45d9,
    0x15e7_6f15_ad21_486e_9be4_c203_9976_6a06,
    0x1624_7eb0_3a55_84b1_f0fa_06fd_2da4_2bb2,
    0x1662_3882_5522_2491_27d9_e29b_8f31_4a33,
    0x16a0_9e66_7f3b_cc90_8b2f_b136_6ea9_57d4,
    0x16df_b23c_651a_2ef2_20e2_cbe1_bbaa_834b,
    0x171f_75e8_ec5f_73dd_2370_f2ef_0acd_6cb4,
    0x175f_eb56_4267_c8bf_6e9a_a33a_48b2_7072,
    0x17a1_1473_eb01_86d7_d510_23f6_cda1_f5ef,
    0x17e2_f336_cf4e_6210_5d02_ba15_797e_170a,
    0x1825_8999_4cce_128a_cf88_afab_34a0_10f7,
    0x1868_d99b_4492_ec80_e41d_90ac_2517_0748,
    0x18ac_e542_2aa0_db5b_a7c5_5a19_2c9b_b3e7,
    0x18f1_ae99_1577_362b_9827_45c7_2ed8_04f0,
    0x1937_37b0_cdc5_e4f4_501c_3f25_40a2_2d30,
    0x197d_829f_de4e_4f8b_9e92_0f91_e8bd_7edc,
    0x19c4_9182_a3f0_901c_7c46_b071_f2be_58de,
    0x1a0c_667b_5de5_64b2_9ada_8b8c_ab34_9aa0,
    0x1a55_03b2_3e25_5c8b_4244_91ca_f87b_c805,
    0x1a9e_6b55_79fd_bf43_eb24_3bdf_f4c4_c58b,
    0x1ae8_9f99_5ad3_ad5e_8734_d177_3205_a7fc,
    0x1b33_a2b8_4f15_faf6_bfd0_e7bd_947c_2575,
    0x1b7f_76f2_fb5e_46ea_a7b0_81ab_53c5_354d,
    0x1bcc_1e90_4bc1_d224_7ba0_f45b_3d08_cd0b,
    0x1c19_9bdd_8552_9c22_20cb_12a0_91ba_6679,
    0x1c67_f12e_57d1_4b4a_2137_fd20_f2b3_01de,
    0x1cb7_20dc_ef90_6915_03cb_d1e9_49db_761e,
    0x1d07_2d4a_0789_7b8d_0f22_f21a_158e_18fc,
    0x1d58_18dc_fba4_8725_da05_aeb6_6e0d_ca9f,
    0x1da9_e603_db32_8570_8c01_a5b6_d4c9_7f62,
    0x1dfc_9733_7b9b_5eb9_68ca_c39e_d291_b722,
    0x1e50_2ee7_8b3f_f627_3d13_0153_991e_8f49,
    0x1ea4_afa2_a490_d985_8f73_a18f_5db3_01f8,
    0x1efa_1bee_615a_2777_1fd2_1a92_dac1_f6dd,
    0x1f50_765b_6e45_4067_4f84_b762_862b_affa,
    0x1fa7_c181_9e90_d82e_90a7_e74b_263c_1dc0,
];

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn every_entry_is_the_nearest_q124_value() {
        for (j, &t) in EXP2_64THS.iter().enumerate() {
            let two_t = BigUint::from(t) * 2u32;
            let target = BigUint::from(1u32) << (125 * 64 + j);
            let below = (&two_t - 1u32).pow(64);
            let above = (&two_t + 1u32).pow(64);
            assert!(below <= target && target <= above, "entry {j}");
        }
    }
}
