// libheif, libjxl and LibRaw, opened the first time a HEIC/AVIF, JPEG XL or
// camera RAW needs them (see optional_library.h for why). Include this after
// nothing else of those libraries: it includes their headers, then makes
// each function name call through the address found at run time, so the
// code using them reads as plain calls.
#ifndef CIMAGING_OPTIONAL_CODECS_H
#define CIMAGING_OPTIONAL_CODECS_H

#include <jxl/decode.h>
#include <jxl/encode.h>
#include <libheif/heif.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libraw/libraw.h>
#include <libswscale/swscale.h>

#include "optional_library.h"

#define PK_HEIF_FUNCTIONS(F)                                                                                  \
  F(heif_get_version) F(heif_context_alloc) F(heif_context_free) F(heif_context_read_from_memory_without_copy) \
  F(heif_context_read_from_file) F(heif_context_get_primary_image_handle) F(heif_image_handle_release)        \
  F(heif_image_handle_get_width) F(heif_image_handle_get_height) F(heif_image_handle_get_number_of_thumbnails) \
  F(heif_image_handle_get_list_of_thumbnail_IDs) F(heif_image_handle_get_thumbnail) F(heif_decode_image)      \
  F(heif_image_get_width) F(heif_image_get_height) F(heif_image_get_plane_readonly) F(heif_image_release)      \
  F(heif_image_handle_get_color_profile_type) F(heif_image_handle_get_raw_color_profile_size)                 \
  F(heif_image_handle_get_raw_color_profile) F(heif_image_handle_get_list_of_metadata_block_IDs)              \
  F(heif_image_handle_get_metadata_size) F(heif_image_handle_get_metadata)

#define PK_JXL_FUNCTIONS(F)                                                                                  \
  F(JxlDecoderVersion) F(JxlDecoderCreate) F(JxlDecoderDestroy) F(JxlDecoderSubscribeEvents)                 \
  F(JxlDecoderSetInput) F(JxlDecoderCloseInput) F(JxlDecoderProcessInput) F(JxlDecoderGetBasicInfo)          \
  F(JxlDecoderSetPreferredColorProfile) F(JxlDecoderGetColorAsEncodedProfile) F(JxlDecoderGetICCProfileSize) \
  F(JxlDecoderGetColorAsICCProfile) F(JxlDecoderImageOutBufferSize) F(JxlDecoderSetImageOutBuffer)           \
  F(JxlColorEncodingSetToSRGB)

#define PK_RAW_FUNCTIONS(F)                                                                                  \
  F(libraw_version) F(libraw_init) F(libraw_open_buffer) F(libraw_open_file) F(libraw_close)                 \
  F(libraw_strerror) F(libraw_unpack_thumb) F(libraw_dcraw_make_mem_thumb) F(libraw_dcraw_clear_mem)         \
  F(libraw_set_dataerror_handler) F(libraw_set_memerror_handler)

// FFmpeg's four libraries, for videos' frames (video.c).
#define PK_AVFORMAT_FUNCTIONS(F)                                                                         \
  F(avformat_alloc_context) F(avformat_open_input) F(avformat_find_stream_info) F(av_find_best_stream) \
  F(av_seek_frame) F(av_read_frame) F(avformat_close_input) F(avio_alloc_context) F(avio_context_free)
#define PK_AVCODEC_FUNCTIONS(F)                                                                              \
  F(avcodec_alloc_context3) F(avcodec_parameters_to_context) F(avcodec_open2) F(avcodec_send_packet)         \
  F(avcodec_receive_frame) F(avcodec_free_context) F(avcodec_flush_buffers) F(av_packet_alloc) F(av_packet_free) \
  F(av_packet_unref) F(avcodec_version)
#define PK_AVUTIL_FUNCTIONS(F) \
  F(av_frame_alloc) F(av_frame_free) F(av_frame_unref) F(av_malloc) F(av_free) F(av_freep) F(av_log_set_level) \
    F(av_rescale_q)
#define PK_SWSCALE_FUNCTIONS(F) F(sws_getContext) F(sws_scale) F(sws_freeContext)

PK_OPTIONAL_DECLARE_ALL(PK_HEIF_FUNCTIONS)
PK_OPTIONAL_DECLARE_ALL(PK_AVFORMAT_FUNCTIONS)
PK_OPTIONAL_DECLARE_ALL(PK_AVCODEC_FUNCTIONS)
PK_OPTIONAL_DECLARE_ALL(PK_AVUTIL_FUNCTIONS)
PK_OPTIONAL_DECLARE_ALL(PK_SWSCALE_FUNCTIONS)
PK_OPTIONAL_DECLARE_ALL(PK_JXL_FUNCTIONS)
PK_OPTIONAL_DECLARE_ALL(PK_RAW_FUNCTIONS)

extern pk_optional_library pk_heif_library, pk_jxl_library, pk_raw_library;
extern pk_optional_library pk_avutil_library, pk_avcodec_library, pk_avformat_library, pk_swscale_library;

// 1 when the library is there (opened now if it was not yet), else 0 with
// the reason in its `error`.
static inline int pk_open_heif(void) { return pk_optional_library_open(&pk_heif_library); }
static inline int pk_open_jxl(void) { return pk_optional_library_open(&pk_jxl_library); }
static inline int pk_open_raw(void) { return pk_optional_library_open(&pk_raw_library); }
// All four of FFmpeg's, avutil first (the others need it loaded).
static inline int pk_open_video(void) {
  return pk_optional_library_open(&pk_avutil_library) && pk_optional_library_open(&pk_avcodec_library) &&
         pk_optional_library_open(&pk_avformat_library) && pk_optional_library_open(&pk_swscale_library);
}
// Why pk_open_video failed: the first library's reason.
static inline const char *pk_video_library_error(void) {
  pk_optional_library *all[] = {&pk_avutil_library, &pk_avcodec_library, &pk_avformat_library, &pk_swscale_library};
  for (int i = 0; i < 4; i++)
    if (all[i]->error[0] != 0) return all[i]->error;
  return "not found";
}

// The calls themselves. Only the file that fills the addresses in sees the
// real names.
#ifndef PK_OPTIONAL_CODECS_FILLING_IN
#define heif_get_version (*pk_optional_heif_get_version)
#define heif_context_alloc (*pk_optional_heif_context_alloc)
#define heif_context_free (*pk_optional_heif_context_free)
#define heif_context_read_from_memory_without_copy (*pk_optional_heif_context_read_from_memory_without_copy)
#define heif_context_read_from_file (*pk_optional_heif_context_read_from_file)
#define heif_context_get_primary_image_handle (*pk_optional_heif_context_get_primary_image_handle)
#define heif_image_handle_release (*pk_optional_heif_image_handle_release)
#define heif_image_handle_get_width (*pk_optional_heif_image_handle_get_width)
#define heif_image_handle_get_height (*pk_optional_heif_image_handle_get_height)
#define heif_image_handle_get_number_of_thumbnails (*pk_optional_heif_image_handle_get_number_of_thumbnails)
#define heif_image_handle_get_list_of_thumbnail_IDs (*pk_optional_heif_image_handle_get_list_of_thumbnail_IDs)
#define heif_image_handle_get_thumbnail (*pk_optional_heif_image_handle_get_thumbnail)
#define heif_decode_image (*pk_optional_heif_decode_image)
#define heif_image_get_width (*pk_optional_heif_image_get_width)
#define heif_image_get_height (*pk_optional_heif_image_get_height)
#define heif_image_get_plane_readonly (*pk_optional_heif_image_get_plane_readonly)
#define heif_image_release (*pk_optional_heif_image_release)
#define heif_image_handle_get_color_profile_type (*pk_optional_heif_image_handle_get_color_profile_type)
#define heif_image_handle_get_raw_color_profile_size (*pk_optional_heif_image_handle_get_raw_color_profile_size)
#define heif_image_handle_get_raw_color_profile (*pk_optional_heif_image_handle_get_raw_color_profile)
#define heif_image_handle_get_list_of_metadata_block_IDs \
  (*pk_optional_heif_image_handle_get_list_of_metadata_block_IDs)
#define heif_image_handle_get_metadata_size (*pk_optional_heif_image_handle_get_metadata_size)
#define heif_image_handle_get_metadata (*pk_optional_heif_image_handle_get_metadata)

#define JxlDecoderVersion (*pk_optional_JxlDecoderVersion)
#define JxlDecoderCreate (*pk_optional_JxlDecoderCreate)
#define JxlDecoderDestroy (*pk_optional_JxlDecoderDestroy)
#define JxlDecoderSubscribeEvents (*pk_optional_JxlDecoderSubscribeEvents)
#define JxlDecoderSetInput (*pk_optional_JxlDecoderSetInput)
#define JxlDecoderCloseInput (*pk_optional_JxlDecoderCloseInput)
#define JxlDecoderProcessInput (*pk_optional_JxlDecoderProcessInput)
#define JxlDecoderGetBasicInfo (*pk_optional_JxlDecoderGetBasicInfo)
#define JxlDecoderSetPreferredColorProfile (*pk_optional_JxlDecoderSetPreferredColorProfile)
#define JxlDecoderGetColorAsEncodedProfile (*pk_optional_JxlDecoderGetColorAsEncodedProfile)
#define JxlDecoderGetICCProfileSize (*pk_optional_JxlDecoderGetICCProfileSize)
#define JxlDecoderGetColorAsICCProfile (*pk_optional_JxlDecoderGetColorAsICCProfile)
#define JxlDecoderImageOutBufferSize (*pk_optional_JxlDecoderImageOutBufferSize)
#define JxlDecoderSetImageOutBuffer (*pk_optional_JxlDecoderSetImageOutBuffer)
#define JxlColorEncodingSetToSRGB (*pk_optional_JxlColorEncodingSetToSRGB)

#define avformat_alloc_context (*pk_optional_avformat_alloc_context)
#define avformat_open_input (*pk_optional_avformat_open_input)
#define avformat_find_stream_info (*pk_optional_avformat_find_stream_info)
#define av_find_best_stream (*pk_optional_av_find_best_stream)
#define av_seek_frame (*pk_optional_av_seek_frame)
#define av_read_frame (*pk_optional_av_read_frame)
#define avformat_close_input (*pk_optional_avformat_close_input)
#define avio_alloc_context (*pk_optional_avio_alloc_context)
#define avio_context_free (*pk_optional_avio_context_free)
#define avcodec_alloc_context3 (*pk_optional_avcodec_alloc_context3)
#define avcodec_parameters_to_context (*pk_optional_avcodec_parameters_to_context)
#define avcodec_open2 (*pk_optional_avcodec_open2)
#define avcodec_send_packet (*pk_optional_avcodec_send_packet)
#define avcodec_receive_frame (*pk_optional_avcodec_receive_frame)
#define avcodec_free_context (*pk_optional_avcodec_free_context)
#define avcodec_flush_buffers (*pk_optional_avcodec_flush_buffers)
#define av_packet_alloc (*pk_optional_av_packet_alloc)
#define av_packet_free (*pk_optional_av_packet_free)
#define av_packet_unref (*pk_optional_av_packet_unref)
#define avcodec_version (*pk_optional_avcodec_version)
#define av_frame_alloc (*pk_optional_av_frame_alloc)
#define av_frame_free (*pk_optional_av_frame_free)
#define av_frame_unref (*pk_optional_av_frame_unref)
#define av_malloc (*pk_optional_av_malloc)
#define av_free (*pk_optional_av_free)
#define av_freep (*pk_optional_av_freep)
#define av_log_set_level (*pk_optional_av_log_set_level)
#define av_rescale_q (*pk_optional_av_rescale_q)
#define sws_getContext (*pk_optional_sws_getContext)
#define sws_scale (*pk_optional_sws_scale)
#define sws_freeContext (*pk_optional_sws_freeContext)

#define libraw_version (*pk_optional_libraw_version)
#define libraw_init (*pk_optional_libraw_init)
#define libraw_open_buffer (*pk_optional_libraw_open_buffer)
#define libraw_open_file (*pk_optional_libraw_open_file)
#define libraw_close (*pk_optional_libraw_close)
#define libraw_strerror (*pk_optional_libraw_strerror)
#define libraw_unpack_thumb (*pk_optional_libraw_unpack_thumb)
#define libraw_dcraw_make_mem_thumb (*pk_optional_libraw_dcraw_make_mem_thumb)
#define libraw_dcraw_clear_mem (*pk_optional_libraw_dcraw_clear_mem)
#define libraw_set_dataerror_handler (*pk_optional_libraw_set_dataerror_handler)
#define libraw_set_memerror_handler (*pk_optional_libraw_set_memerror_handler)
#endif

#endif
