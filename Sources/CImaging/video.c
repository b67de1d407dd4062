// A video's thumbnail: one frame, through FFmpeg's libraries (opened when
// the first video is drawn; see optional_codecs.h). Not the first frame,
// which is often black or a fade: the key frame at or before a tenth of
// the clip, as ffmpegthumbnailer and Immich take, and further in when that
// one is nearly black. Only that frame is decoded, scaled on the way out
// to cover the box asked for. Demuxers meet hostile files, so the picker
// runs this in the helper process the camera RAWs use (raw_isolation.c).
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode_internal.h"
#include "optional_codecs.h"
#include "system_calls.h"

// max_frames_forward: about two seconds of a clip, decoded to reach a
// point past a dark key frame.
enum { io_buffer_bytes = 64 * 1024, max_packets = 600, max_frames_forward = 64 };

// The file through its descriptor, read with pread so that the parent's
// and the child's offsets never matter.
typedef struct {
  int fd;
  int64_t at, size;
} file_reader;

static int read_packet(void *opaque, uint8_t *buffer, int size) {
  file_reader *file = opaque;
  if (file->at >= file->size) return AVERROR_EOF;
  ssize_t n = pk_io_pread_once(file->fd, buffer, (size_t)size, (off_t)file->at);
  if (n < 0) return AVERROR(errno);
  if (n == 0) return AVERROR_EOF;
  file->at += n;
  return (int)n;
}

static int64_t seek_file(void *opaque, int64_t offset, int whence) {
  file_reader *file = opaque;
  whence &= ~AVSEEK_FORCE;
  if (whence == AVSEEK_SIZE) return file->size;
  int64_t to = whence == SEEK_SET ? offset : whence == SEEK_CUR ? file->at + offset : file->size + offset;
  if (to < 0) return AVERROR(EINVAL);
  file->at = to;
  return to;
}

// How dark a frame is: the mean of a sample of its pixels' green (0-255).
static int mean_level(const pk_image *image) {
  const int64_t count = (int64_t)image->width * image->height;
  if (count == 0) return 0;
  const int64_t step = count / 997 + 1;
  int64_t sum = 0, seen = 0;
  for (int64_t i = 0; i < count; i += step, seen++) sum += image->pixels[i * 4 + 1];
  return (int)(sum / seen);
}

typedef struct {
  AVFormatContext *format;
  AVCodecContext *codec;
  AVPacket *packet;
  AVFrame *frame;
  int stream;
} video;

// The next frame of the stream from where the demuxer stands: 0, or -1.
static int next_frame(video *v) {
  for (int packets = 0; packets < max_packets;) {
    int status = avcodec_receive_frame(v->codec, v->frame);
    if (status == 0) return 0;
    if (status != AVERROR(EAGAIN)) return -1;
    status = av_read_frame(v->format, v->packet);
    if (status < 0) {
      // At the end the decoder still holds frames: drain them.
      avcodec_send_packet(v->codec, NULL);
      return avcodec_receive_frame(v->codec, v->frame) == 0 ? 0 : -1;
    }
    if (v->packet->stream_index == v->stream) {
      packets++;
      status = avcodec_send_packet(v->codec, v->packet);
      if (status < 0 && status != AVERROR(EAGAIN) && status != AVERROR_INVALIDDATA) {
        av_packet_unref(v->packet);
        return -1;
      }
    }
    av_packet_unref(v->packet);
  }
  return -1;
}

// The first frame at or after `point` (the stream's time; AV_NOPTS_VALUE:
// the next one), or the last decoded when the clip ends or the budget does.
static int next_frame_at(video *v, int64_t point) {
  if (next_frame(v) != 0) return -1;
  for (int frames = 0; point != AV_NOPTS_VALUE && frames < max_frames_forward; frames++) {
    const int64_t at = v->frame->best_effort_timestamp;
    if (at == AV_NOPTS_VALUE || at >= point) break;
    av_frame_unref(v->frame);
    if (next_frame(v) != 0) return -1;
  }
  return 0;
}

// The frame scaled (keeping its display aspect) to cover the box asked for,
// as RGBA.
static int scaled(video *v, const pk_decode_options *options, int quarter_turn, pk_image *out) {
  const AVFrame *f = v->frame;
  double width = f->width, height = f->height;
  const AVRational sar = f->sample_aspect_ratio;
  if (sar.num > 0 && sar.den > 0 && sar.num != sar.den) width = width * sar.num / sar.den;
  // The box is the upright picture's; the frame is stored before its turn.
  double need_w = quarter_turn ? options->need_height : options->need_width;
  double need_h = quarter_turn ? options->need_width : options->need_height;
  double factor = 1;
  if (need_w > 0 && need_h > 0) {
    factor = need_w / width > need_h / height ? need_w / width : need_h / height;
    if (factor > 1) factor = 1;
  }
  int32_t w = (int32_t)(width * factor + 0.5), h = (int32_t)(height * factor + 0.5);
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  if (pk_check_size((pk_decode_options *)options, w, h) != 0) return -1;
  struct SwsContext *scale = sws_getContext(
    f->width, f->height, f->format, w, h, AV_PIX_FMT_RGBA, SWS_AREA, NULL, NULL, NULL);
  if (scale == NULL) return -1;
  out->pixels = pk_alloc_pixels(w, h);
  if (out->pixels == NULL) {
    sws_freeContext(scale);
    return -1;
  }
  uint8_t *planes[4] = {out->pixels, NULL, NULL, NULL};
  int strides[4] = {w * 4, 0, 0, 0};
  const int rows = sws_scale(scale, (const uint8_t *const *)f->data, f->linesize, 0, f->height, planes, strides);
  sws_freeContext(scale);
  if (rows != h) {
    free(out->pixels);
    out->pixels = NULL;
    return -1;
  }
  out->width = w;
  out->height = h;
  return 0;
}

static void close_video(video *v, AVIOContext **io) {
  av_frame_free(&v->frame);
  av_packet_free(&v->packet);
  avcodec_free_context(&v->codec);
  avformat_close_input(&v->format);
  if (*io != NULL) av_freep(&(*io)->buffer);
  avio_context_free(io);
}

int pk_decode_video_fd(int fd, int32_t rotation, pk_decode_options *options, pk_image *out) {
  options->format = PK_FORMAT_VIDEO;
  // A failure is the file's unless said otherwise (no library, no memory).
  options->content_error = 1;
  if (!pk_open_video()) {
    options->content_error = 0;
    return pk_fail(options, "videos need FFmpeg's libraries, not installed (%s)", pk_video_library_error());
  }
  struct stat st;
  if (fstat(fd, &st) != 0) return pk_fail(options, "%s", strerror(errno));
  av_log_set_level(AV_LOG_QUIET);
  file_reader file = {fd, 0, (int64_t)st.st_size};
  video v = {0};
  v.stream = -1;
  uint8_t *buffer = av_malloc(io_buffer_bytes);
  AVIOContext *io = buffer != NULL ? avio_alloc_context(buffer, io_buffer_bytes, 0, &file, read_packet, NULL, seek_file) : NULL;
  if (io == NULL) {
    av_free(buffer);
    options->content_error = 0;
    return pk_fail(options, "out of memory");
  }
  v.format = avformat_alloc_context();
  int status = -1;
  if (v.format == NULL) goto done;
  v.format->pb = io;
  // Opening fails for what is no video: the format context is freed then.
  if (avformat_open_input(&v.format, NULL, NULL, NULL) != 0) {
    pk_fail(options, "not a video this picker can read");
    goto done;
  }
  // MP4, MOV and Matroska say their tracks' codec and size in their
  // headers; probing the streams (decoding their first frames) is for
  // those that do not, and would cost a frame's decode or more.
  const AVCodec *decoder = NULL;
  v.stream = av_find_best_stream(v.format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (v.stream < 0 || decoder == NULL || v.format->streams[v.stream]->codecpar->width <= 0) {
    if (avformat_find_stream_info(v.format, NULL) < 0) {
      pk_fail(options, "damaged video (no streams)");
      goto done;
    }
    v.stream = av_find_best_stream(v.format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  }
  if (v.stream < 0 || decoder == NULL) {
    pk_fail(options, v.stream == AVERROR_DECODER_NOT_FOUND ? "no decoder for this video's codec" : "no video stream");
    goto done;
  }
  const AVStream *stream = v.format->streams[v.stream];
  if (stream->codecpar->width <= 0 || stream->codecpar->height <= 0 ||
      (int64_t)stream->codecpar->width * stream->codecpar->height > options->max_pixels) {
    pk_fail(options, "video frame too large or of no size");
    goto done;
  }
  options->source_width = stream->codecpar->width;
  options->source_height = stream->codecpar->height;
  v.codec = avcodec_alloc_context3(decoder);
  v.packet = av_packet_alloc();
  v.frame = av_frame_alloc();
  if (v.codec == NULL || v.packet == NULL || v.frame == NULL ||
      avcodec_parameters_to_context(v.codec, stream->codecpar) < 0) {
    options->content_error = 0;
    pk_fail(options, "out of memory");
    goto done;
  }
  // Slices, not frames, on threads: frame threading would hold the first
  // picture back until several were queued.
  v.codec->thread_count = 0;
  v.codec->thread_type = FF_THREAD_SLICE;
  // A thumbnail a tenth the size shows no blocking: the deblocking filter
  // is skipped (a fifth of a frame's decode).
  v.codec->skip_loop_filter = AVDISCARD_ALL;
  if (avcodec_open2(v.codec, decoder, NULL) < 0) {
    pk_fail(options, "cannot open this video's decoder");
    goto done;
  }
  const int quarter_turn = rotation == 90 || rotation == 270;
  // A tenth in, then further when that frame is nearly black (a fade in,
  // a lens cap); the first frame when the clip cannot seek.
  // The first try takes the key frame before its point (one frame
  // decoded); the later ones decode on to their point, since a key frame
  // may be seconds back, in the dark the first try found.
  const double tries[] = {0.1, 0.25, 0.5};
  const int64_t duration = v.format->duration > 0 ? v.format->duration : 0;
  const AVRational micro = {1, AV_TIME_BASE};
  for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
    int64_t point = AV_NOPTS_VALUE;
    if (duration > 0) {
      const int64_t start = v.format->start_time != AV_NOPTS_VALUE ? v.format->start_time : 0;
      const int64_t target = (int64_t)(duration * tries[t]) + start;
      if (av_seek_frame(v.format, -1, target, AVSEEK_FLAG_BACKWARD) >= 0) avcodec_flush_buffers(v.codec);
      if (t > 0) point = av_rescale_q(target, micro, stream->time_base);
    }
    if (next_frame_at(&v, point) != 0) {
      if (out->pixels != NULL) break;  // an earlier, darker frame is still a frame
      pk_fail(options, "damaged video (no frame decoded)");
      goto done;
    }
    pk_image frame = {0};
    if (scaled(&v, options, quarter_turn, &frame) != 0) {
      if (out->pixels != NULL) break;
      if (options->error[0] == 0) pk_fail(options, "cannot scale the video's frame");
      goto done;
    }
    av_frame_unref(v.frame);
    pk_image_free(out);
    *out = frame;
    if (duration == 0 || mean_level(out) >= 24) break;
  }
  options->orientation = pk_video_orientation(rotation);
  if (pk_image_orient(out, options->orientation) != 0) {
    options->content_error = 0;
    pk_fail(options, "out of memory");
    goto done;
  }
  options->content_error = 0;
  status = 0;
done:
  close_video(&v, &io);
  if (status != 0) pk_image_free(out);
  return status;
}
