# source: sonic-net/sonic-buildimage@086b03bd70f9:device/arista/x86_64-arista_7060px4_32/Arista-7060PX4-O32/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th3-a7060px4-o32-32x400G.config.bcm
