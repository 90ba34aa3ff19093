# source: sonic-net/sonic-buildimage@086b03bd70f9:device/celestica/x86_64-cel_silverstone-r0/Silverstone/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th3-32x400G.config.bcm
