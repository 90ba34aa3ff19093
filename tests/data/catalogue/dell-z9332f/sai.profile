# source: sonic-net/sonic-buildimage@086b03bd70f9:device/dell/x86_64-dellemc_z9332f_d1508-r0/DellEMC-Z9332f-O32/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th3-z9332f-32x400G.config.bcm
