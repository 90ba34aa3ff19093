# source: sonic-net/sonic-buildimage@086b03bd70f9:device/dell/x86_64-dell_z9864f-r0/Dell-Z9864f-O64/sai.profile
# the SAI_INIT_CONFIG_FILE line (Apache-2.0, SONiC)
SAI_INIT_CONFIG_FILE=/usr/share/sonic/hwsku/th5_z9864f_64x800lt.yml
