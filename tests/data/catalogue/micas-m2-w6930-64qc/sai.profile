# source: sonic-net/sonic-buildimage@086b03bd70f9:device/micas/x86_64-micas_m2-w6930-64qc-r0/M2-W6930-64QC/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th4-m2-w6930-64qc-64x400G.config.yml
