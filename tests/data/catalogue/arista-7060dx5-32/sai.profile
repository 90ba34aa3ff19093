# source: sonic-net/sonic-buildimage@086b03bd70f9:device/arista/x86_64-arista_7060dx5_32/Arista-7060DX5-32/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th4-a7060dx5-32.config.bcm
